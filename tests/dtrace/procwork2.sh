#!/bin/sh
# workload of tst.proclwp.d: a process that runs a second thread, a failed
# exec, a signal this script ignores
/usr/bin/python3.11 -c 'import threading; t = threading.Thread(target=int); t.start(); t.join()'
/nonexistent/program 2>/dev/null
trap '' USR1
kill -USR1 $$
exit 0
