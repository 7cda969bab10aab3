#!/usr/bin/env bash
# dev/debt.sh: what the re-layering (issue 24) still owes, counted on src/.
cd "$(dirname "$0")/.." || exit 1
fe='^src/(bt|dtrace|python)/'
echo "dialect branches outside the front ends: $(grep -rnE 'dialect *[!=]=' src | grep -vE "$fe" | wc -l)"
prov='uprobe|uretprobe|usdt|iter|kfunc|kretfunc|fentry|fexit|kprobe|kretprobe|tracepoint|rawtracepoint|profile|interval|software|hardware|watchpoint|asyncwatchpoint'
# a front end may name providers of its own language (D's profile-n maps to profile/interval)
echo "provider-name strcmps outside probes/ and the front ends: $(grep -rnE "strcmp\([^)]*\"($prov)\"" src | grep -vE '^src/probes/' | grep -vE "$fe" | wc -l)"
echo "mutable file-scope variables: $(grep -nE '^(static )?[a-zA-Z_][a-zA-Z0-9_ \*]*[ \*][a-z_][a-z0-9_]*(\[[^]]*\])* *(=[^=]|;)' src/*/*.c src/main.c \
	| grep -vE ':(static )?const |typedef|extern|\(' | grep -v '/\* signal handler' | wc -l)" \
	"(besides $(grep -c '^static .*/\* signal handler' src/*/*.c | awk -F: '{ n += $2 } END { print n }') marked '/* signal handler */':" \
	"a handler takes no context)"
# usage/run/parse_args: each subcommand's own static entry points (its own
# text and options), not copies of one helper; listed apart.
cli='^(usage|run|parse_args)$'
dups=$(grep -oE '^(static )?[a-z_A-Z][a-zA-Z0-9_ \*]* \**([a-z_][a-z0-9_]*)\(' src -r --include=*.c \
	| sed -E 's/:.*[ \*]([a-z_][a-z0-9_]*)\($/ \1/' | sort -u | awk '{print $2}' | sort | uniq -d)
echo "function names defined in 2+ files: $(printf '%s\n' "$dups" | grep -vE "$cli" | grep -c .)" \
	"(besides the subcommands' own entry points: $(printf '%s\n' "$dups" | grep -E "$cli" | tr '\n' ' '))"
python3 dev/check-layers.py | tail -1
