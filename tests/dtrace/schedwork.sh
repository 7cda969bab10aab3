#!/bin/sh
# workload of tst.schedqueue.d: two busy loops sharing CPU 0 preempt each
# other; one of them, still runnable, is then moved to CPU 1
busy='i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'
taskset -c 0 /bin/sh -c "$busy" &
a=$!
taskset -c 0 /bin/sh -c "$busy" &
sleep 0.1
taskset -p -c 1 $a >/dev/null
wait
