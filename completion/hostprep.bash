# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for hostprep(8). Installed as
# /usr/share/bash-completion/completions/hostprep. Needs nothing from the
# bash-completion package, so tests/doc/run.sh can drive it in a bare bash.

# The commands are kept equal to commands[] in src/modules.c by tests/doc/run.sh. The
# options are the program's own tables, asked of it (`hostprep --list-options`: one
# "OWNER SHORT LONG ARG" a line, "-" for none, OWNER "hostprep" for its own options).
_hostprep_commands='apply check status gate revert config acs rdma env topology snapshot'

# The options of OWNER... (hostprep, a command), short and long, one a line.
_hostprep_opts() {
	local owner short long arg o

	while read -r owner short long arg; do
		for o in "$@"; do
			[[ $owner == "$o" ]] || continue
			[[ $short == - ]] || printf '%s\n' "$short"
			printf '%s\n' "$long"
		done
	done < <("${COMP_WORDS[0]}" --list-options 2>/dev/null)
}

# The argument's name (DIR, FILE, NAME) of option $1, of any table; nothing if it takes none.
_hostprep_arg() {
	local owner short long arg

	while read -r owner short long arg; do
		[[ $1 == "$short" || $1 == "$long" ]] || continue
		[[ $arg == - ]] || printf '%s' "$arg"
		return
	done < <("${COMP_WORDS[0]}" --list-options 2>/dev/null)
}

# The word at index $1 with a leading ~ expanded, never eval'ed.
_hostprep_word() {
	local w=${COMP_WORDS[$1]}

	[[ $w == '~'* ]] && w=$HOME${w:1}
	printf '%s' "$w"
}

# The --root/--config arguments typed so far, for hostprep itself: the rule
# names must come from the configuration the command line would use.
_hostprep_config_args() {
	local i

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--root | --config | --vendor-config)
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i + 1 < COMP_CWORD)) &&
				printf '%s\0%s\0' "${COMP_WORDS[i]}" "$(_hostprep_word $((i + 1)))"
			((i++))
			;;
		esac
	done
}

# Rule names ([ACS:NAME], [Module:NAME], [Port:NAME], [Bond:NAME]) of the
# merged configuration, read from `hostprep config`: its output is valid INI
# and the one place where drop-ins, masks and --config are already resolved.
_hostprep_rules() {
	local -a args=()
	local a

	while IFS= read -r -d '' a; do
		args+=("$a")
	done < <(_hostprep_config_args)
	"${COMP_WORDS[0]}" "${args[@]}" config 2>/dev/null |
		sed -n 's/^\[\(ACS\|Module\|Port\|Bond\):\([^]]*\)\]$/\1:\2/p'
}

_hostprep() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local cmd='' validate='' w i nargs=0 opts owner short long arg
	local -a takes_arg

	COMPREPLY=()
	# --root=DIR: readline splits at '=', so the option is two words back.
	if [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == = ]]; then
		cur=''
	fi
	case $(_hostprep_arg "$prev") in
	DIR)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0
		;;
	FILE)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
		;;
	?*) return 0 ;; # a NAME: typed
	esac
	mapfile -t takes_arg < <("${COMP_WORDS[0]}" --list-options 2>/dev/null |
		while read -r owner short long arg; do
			[[ $arg == - ]] || printf '%s\n%s\n' "$short" "$long"
		done | grep -vx -- -)
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--validate | --validate-as) validate=1 ;;
		esac
		if [[ " ${takes_arg[*]} " == *" $w "* ]]; then
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
		elif [[ $w != -* ]]; then
			if [[ -z $cmd ]]; then cmd=$w; else ((nargs++)); fi
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_hostprep_opts hostprep)" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$_hostprep_commands" -- "$cur")
		fi
		return 0
	fi
	opts=$(_hostprep_opts "$cmd" hostprep)
	case $cmd in
	apply | check) mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur") ;;
	config)
		if [[ -n $validate && $cur != -* ]]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		fi
		;;
	acs)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
		elif ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W cmdline -- "$cur")
		fi
		;;
	*) [[ $cur == -* ]] && mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur") ;;
	esac
	return 0
}

complete -F _hostprep hostprep
