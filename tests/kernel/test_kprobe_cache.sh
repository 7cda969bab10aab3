# sonde keeps available_filter_functions and the kprobe blacklist under
# /run/sonde, valid for this boot and these modules (kcache.c): the copy is
# the kernel's text after a key line; a copy with the key is used as is
# (proved by a name only it has), one under another key, or that another
# user could write, is not; unloading a module changes the key.
A=/sys/kernel/tracing/available_filter_functions
C=/run/sonde/available_filter_functions
fail() { echo "$*"; rm -rf /run/sonde; exit 1; }
rm -rf /run/sonde
# a probe named checks both listings (-l reads only the first)
sonde -e 'kprobe:vfs_read { } BEGIN { exit(); }' > /dev/null || fail "kprobe:vfs_read failed"
[ -f $C ] || fail "no $C after a run"
[ "$(stat -c %a /run/sonde)" = 700 ] || fail "/run/sonde is $(stat -c %a /run/sonde), not 700"
tail -n +2 $C | cmp -s - $A || fail "the copy differs from $A"
key=$(head -1 $C)
case $key in "sonde kernel listing 1 $(cat /proc/sys/kernel/random/boot_id) "*) ;; *) fail "key: $key" ;; esac
[ -f /run/sonde/kprobe_blacklist ] || fail "no kprobe_blacklist copy"
# a valid copy is read instead of the kernel's file
printf '%s\nsonde_only_in_the_copy\n' "$key" > $C
[ "$(sonde -l 'kprobe:sonde_only_in_*')" = kprobe:sonde_only_in_the_copy ] || fail "the copy was not used"
# another user could have written it: ignored (and replaced)
chmod 666 $C
[ -z "$(sonde -l 'kprobe:sonde_only_in_*')" ] || fail "a world-writable copy was used"
# another boot's copy: ignored
printf 'sonde kernel listing 1 00000000-0000-0000-0000-000000000000 0\nsonde_only_in_the_copy\n' > $C
[ -z "$(sonde -l 'kprobe:sonde_only_in_*')" ] || fail "another boot's copy was used"
# another module set: rmmod changes the key, the module's functions go
printf '%s\nsonde_only_in_the_copy\n' "$key" > $C
rmmod dummy || fail "rmmod dummy"
got=$(sonde -l 'kprobe:sonde_only_in_*'; sonde -l 'kprobe:dummy:*' 2>&1)
insmod /lib/modules/*/dummy.ko
[ -z "$got" ] || fail "after rmmod dummy: [$got]"
[ -n "$(sonde -l 'kprobe:dummy:*')" ] || fail "after insmod dummy: no kprobe:dummy:*"
rm -rf /run/sonde
exit 0
