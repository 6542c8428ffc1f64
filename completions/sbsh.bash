# bash completion for sbsh, the sandboxed shell for AI coding agents.
# Installed as $(datadir)/bash-completion/completions/sbsh.

_sbsh()
{
    local cur prev
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_CWORD:+${COMP_WORDS[COMP_CWORD-1]}}

    local shell_options="allexport emacs errexit hashall ignoreeof monitor noclobber
        noexec noglob nolog notify nounset pipefail posix verbose vi xtrace"

    # readline splits `--net=off` at `=` (COMP_WORDBREAKS): see it whole again
    if [[ $cur == = ]]; then
        prev+==; cur=
    elif [[ $prev == = ]] && (( COMP_CWORD >= 2 )); then
        prev=${COMP_WORDS[COMP_CWORD-2]}=
    fi
    case $prev in
    --net=)
        COMPREPLY=($(compgen -W "on off allow:" -- "$cur"))
        [[ ${COMPREPLY[0]} == allow: ]] && compopt -o nospace 2>/dev/null
        return 0 ;;
    --allow-write=)
        COMPREPLY=($(compgen -d -- "$cur"))
        compopt -o filenames 2>/dev/null
        return 0 ;;
    esac

    # `--config set-sandbox VALUE` and `--config set-network VALUE`
    if (( COMP_CWORD >= 2 )) && [[ ${COMP_WORDS[COMP_CWORD-2]} == --config ]]; then
        case $prev in
        set-sandbox) COMPREPLY=($(compgen -W "on off auto" -- "$cur")) ;;
        set-network) COMPREPLY=($(compgen -W "on off allow:" -- "$cur")); compopt -o nospace 2>/dev/null ;;
        esac
        return 0
    fi

    case $prev in
    --config)
        COMPREPLY=($(compgen -W "set-sandbox set-network" -- "$cur"))
        return 0 ;;
    --allow-write|--shims)
        COMPREPLY=($(compgen -d -- "$cur"))
        compopt -o filenames 2>/dev/null
        return 0 ;;
    -o|+o)
        COMPREPLY=($(compgen -W "$shell_options" -- "$cur"))
        return 0 ;;
    -c)
        return 0 ;; # a command string: nothing sensible to offer
    esac

    if [[ $prev == --setup ]]; then
        COMPREPLY=($(compgen -W "--undo claude-code codex" -- "$cur"))
        return 0
    fi
    if [[ $prev == --undo ]]; then
        COMPREPLY=($(compgen -W "claude-code codex" -- "$cur"))
        return 0
    fi

    if [[ $prev == --review ]]; then
        COMPREPLY=($(compgen -W "status log diff accept reject undo --isolate" -- "$cur"))
        return 0
    fi
    # the layers of the project here, for --isolate and --review --isolate
    if [[ $prev == --isolate ]]; then
        local layers
        layers=$("${COMP_WORDS[0]}" --review --isolate list 2>/dev/null | awk 'NR > 1 && $1 != "(none)" { print $1 }')
        if (( COMP_CWORD >= 2 )) && [[ ${COMP_WORDS[COMP_CWORD-2]} == --review ]]; then
            layers+=" list"
        fi
        COMPREPLY=($(compgen -W "$layers" -- "$cur"))
        return 0
    fi
    if (( COMP_CWORD >= 3 )) && [[ ${COMP_WORDS[COMP_CWORD-2]} == --isolate && ${COMP_WORDS[COMP_CWORD-3]} == --review ]]; then
        COMPREPLY=($(compgen -W "status diff accept reject discard" -- "$cur"))
        return 0
    fi

    case $cur in
    --net=*)
        COMPREPLY=($(compgen -W "on off allow:" -- "${cur#--net=}"))
        [[ ${COMPREPLY[0]} == allow: ]] && compopt -o nospace 2>/dev/null
        return 0 ;;
    --allow-write=*)
        COMPREPLY=($(compgen -d -- "${cur#--allow-write=}"))
        compopt -o filenames 2>/dev/null
        return 0 ;;
    -*)
        local opts="--sandbox --no-sandbox --net= --allow-write --no-hide --headless --audit
            --doctor --json --classify --config --shims --setup --approver --review --no-checkpoints
            --ephemeral --isolate --login --posix --norc
            --noprofile --version --help -c -s -i -l -o"
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        [[ ${COMPREPLY[0]} == --net= && ${#COMPREPLY[@]} == 1 ]] && compopt -o nospace 2>/dev/null
        return 0 ;;
    esac

    # the script to run, then its arguments
    COMPREPLY=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
    return 0
}
complete -F _sbsh sbsh
