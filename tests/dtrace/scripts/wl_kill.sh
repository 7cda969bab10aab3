#!/bin/sh
# killsnoop.d's workload: a probe with signal 0, then SIGUSR1 to this
# script, which handles it
trap 'true' USR1
/bin/kill -0 $$
/bin/kill -USR1 $$
