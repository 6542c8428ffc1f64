ll; iff echo; fi
q x"
