#!/usr/bin/env bash
# args->NAME / args.NAME in uprobes from DWARF (tests/progs/dwarf_target,
# built with -g): integers of every size and sign, pointers, str() of a
# char *, struct members through pointers; -lv lists the parameters as
# bpftrace does; errors for a missing parameter, the 7th parameter, a
# uretprobe, and a function without debug info.  Also kstack/ustack modes.
SONDE=${SONDE:-./sonde}
P=$PWD/build/progs
fail=0
. "$(dirname "$0")/lib.sh"
check "-lv" "uprobe:$P/dwarf_target:pointers
    const point_t* p
    const char* name
    char** names
    void* v" -lv "uprobe:$P/dwarf_target:pointers"
check "-lv wildcard" "uprobe:$P/dwarf_target:scalars
    unsigned char c
    short int s
    size_t n
    _Bool ok
    uint32_t u
    long long int ll
uprobe:$P/dwarf_target:seven
    int a
    int b
    int c
    int d
    int e
    int f
    int g" -lv "uprobe:$P/dwarf_target:s*"
check "args" "Attaching 3 probes...
65 -5 99 1 77 -8
3 4 head dwarf dwarf 7 tail
6


@s[-5]: 1" -e "uprobe:$P/dwarf_target:scalars { printf(\"%d %d %d %d %d %d\n\", args->c, args->s, args->n, args->ok, args->u, args.ll); @s[args->s] = count(); }
uprobe:$P/dwarf_target:pointers { printf(\"%d %d %s %s %s %d %s\n\", args->p->x, args->p->y, args->p->tag, str(args->name), str(*args->names), args->p->next->x, args->p->next->tag); }
uprobe:$P/dwarf_target:seven { printf(\"%d\n\", args->f); }" -c "$P/dwarf_target"
err() { # name, expected first line, program
	local got st; got=$("$SONDE" -e "$3" 2>&1); st=$?
	if [ $st != 1 ] || [ "$(head -1 <<<"$got" | sed -E 's/^stdin:1:[0-9]+-[0-9]+: //')" != "$2" ]; then
		printf '%s: status %s\n--- expected\n%s\n--- got\n%s\n' "$1" $st "$2" "$got"; fail=1
	fi
}
err no-param "ERROR: scalars has no parameter 'zz'" "uprobe:$P/dwarf_target:scalars { print(args->zz); }"
err seventh "ERROR: parameter 'g' of seven is number 7: only the first six are read (from registers), use a pointer or another probe" "uprobe:$P/dwarf_target:seven { print(args->g); }"
err uretprobe "ERROR: args is only available in tracepoint and uprobe probes, not in uretprobe" "uretprobe:$P/dwarf_target:seven { print(args->a); }"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -O1 -o "$tmp/nodebug" tests/progs/dwarf_target.c
err no-debug "ERROR: args: no debug info for seven in $tmp/nodebug (build it with -g, or use arg0..arg5)" "uprobe:$tmp/nodebug:seven { print(args->a); }"
# stack modes: perf (tab, hex address, sym+off, (module) for user frames)
got=$("$SONDE" -e "uprobe:$P/uprobe_target:leaf { @u[ustack(perf, 2)] = count(); @b[ustack(bpftrace, 1)] = count(); }" -c "$P/uprobe_target 2 200" 2>&1 | sed -E 's/^\t[0-9a-f]+ /\tADDR /; s/\+[0-9]+/+N/')
want="Attaching 1 probe...


@b[
    leaf+N
]: 2
@u[
	ADDR leaf+N (/work/main/build/progs/uprobe_target)
	ADDR main+N (/work/main/build/progs/uprobe_target)
]: 2"
want=${want//\/work\/main\/build\/progs/$P}
[ "$got" = "$want" ] || { printf 'stack modes\n--- expected\n%s\n--- got\n%s\n' "$want" "$got"; fail=1; }
got=$("$SONDE" -e "tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @k[kstack(perf, 1)] = count(); }" -c "$P/getppid_loop 3" 2>&1 | sed -E 's/^\t[0-9a-f]{16} [a-z_0-9]+\+[0-9]+$/\tADDR SYM+N/')
want="Attaching 1 probe...


@k[
	ADDR SYM+N
]: 3"
[ "$got" = "$want" ] || { printf 'kstack(perf)\n--- expected\n%s\n--- got\n%s\n' "$want" "$got"; fail=1; }
exit $fail
