#!/bin/sh
# workload of tst.psargs.d: children with known arguments (an empty one, a
# list longer than PRARGSZ), one that signals this script
trap 'true' USR1
/bin/echo one "" three >/dev/null
/bin/echo 0123456789 0123456789 0123456789 0123456789 0123456789 0123456789 0123456789 >/dev/null
/bin/sh -c 'kill -USR1 $PPID'
exit 0
