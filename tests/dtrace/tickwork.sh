#!/bin/sh
# workload of tst.schedtick.d: a busy loop that the clock ticks charge
i=0
while [ $i -lt 200000 ]; do i=$((i+1)); done
