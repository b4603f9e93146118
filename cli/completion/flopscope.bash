# bash completion for flopscope: subcommands and options read from the installed binary's own --help (so
# they never go stale), files for everything else.
_flopscope() {
  local cur prev words cword
  _init_completion || return
  local cmd="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -*) ;;
      *) cmd="${words[i]}"; break ;;
    esac
  done
  if [[ -z "$cmd" ]]; then
    if [[ "$cur" == -* ]]; then
      COMPREPLY=($(compgen -W "$("$1" --help 2>/dev/null | grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u)" -- "$cur"))
    else
      COMPREPLY=($(compgen -W "$("$1" --help 2>/dev/null | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}')" -- "$cur"))
    fi
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$("$1" "$cmd" --help 2>/dev/null | grep -oE -- '(^|[ ,])--?[A-Za-z][A-Za-z0-9-]*' | tr -d ' ,' | sort -u)" -- "$cur"))
    return
  fi
  _filedir
}
complete -F _flopscope flopscope
