#!/bin/sh
# killsnoop.d's workload: a probe with signal 0, then SIGCONT (harmless),
# both to this script
/bin/kill -0 $$
/bin/kill -CONT $$
