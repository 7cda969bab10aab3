# runs id(1) with its output discarded (it fopens known files)
exec /usr/bin/id >/dev/null
