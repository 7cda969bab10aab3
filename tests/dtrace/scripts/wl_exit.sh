#!/bin/sh
# exitsnoop.d's workload: a child that exits, one that kills itself
/bin/sh -c 'exit 3'
/bin/sh -c 'kill -TERM $$'
true
