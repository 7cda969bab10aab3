#!/bin/sh
# workload of tst.procargs.d: a child that exits, one killed by its own
# SIGTERM, then exit status 3
/bin/true
/bin/sh -c 'kill -TERM $$'
exit 3
