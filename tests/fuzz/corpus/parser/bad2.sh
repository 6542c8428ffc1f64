if true; then
  echo )
