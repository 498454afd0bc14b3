# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for hostprep(8). Installed as
# /usr/share/bash-completion/completions/hostprep. Needs nothing from the
# bash-completion package, so tests/doc/run.sh can drive it in a bare bash.

# Kept equal to the command table (src/modules.c) and to the option tables
# (`hostprep --list-options`) by tests/doc/run.sh.
_hostprep_commands='apply check status gate revert config acs rdma env topology snapshot'
_hostprep_options='--root --config --vendor-config --json --no-color -v --verbose -h --help --version'

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
	local cmd='' validate='' w i nargs=0

	COMPREPLY=()
	# --root=DIR: readline splits at '=', so the option is two words back.
	if [[ $prev == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == = ]]; then
		cur=''
	fi
	case $prev in
	--root)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0
		;;
	--config | -o | --output)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0
		;;
	--validate-as) return 0 ;; # NAME: the installed file's name, typed
	esac
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root | --config | --vendor-config)
			[[ ${COMP_WORDS[i + 1]} == = ]] && ((i++))
			((i++))
			;;
		--validate) validate=1 ;;
		--validate-as)
			validate=1
			((i++))
			;;
		-*) ;;
		*) if [[ -z $cmd ]]; then cmd=$w; else ((nargs++)); fi ;;
		esac
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$_hostprep_options" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$_hostprep_commands" -- "$cur")
		fi
		return 0
	fi
	case $cmd in
	apply) mapfile -t COMPREPLY < <(compgen -W "--dry-run --publish $_hostprep_options" -- "$cur") ;;
	check) mapfile -t COMPREPLY < <(compgen -W "--publish $_hostprep_options" -- "$cur") ;;
	status) [[ $cur == -* ]] && mapfile -t COMPREPLY < <(compgen -W "--oneline $_hostprep_options" -- "$cur") ;;
	snapshot) [[ $cur == -* ]] && mapfile -t COMPREPLY < <(compgen -W "-o --output $_hostprep_options" -- "$cur") ;;
	config)
		if [[ -n $validate && $cur != -* ]]; then
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "--validate --validate-as $_hostprep_options" -- "$cur")
		fi
		;;
	acs)
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--install --uninstall $_hostprep_options" -- "$cur")
		elif ((nargs == 0)); then
			mapfile -t COMPREPLY < <(compgen -W cmdline -- "$cur")
		fi
		;;
	*) [[ $cur == -* ]] && mapfile -t COMPREPLY < <(compgen -W "$_hostprep_options" -- "$cur") ;;
	esac
	return 0
}

complete -F _hostprep hostprep
