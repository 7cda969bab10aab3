#!/bin/sh
# tst.specopen.d's workload: one open that fails
cat </nonexistent/specopen 2>/dev/null
exit 0
