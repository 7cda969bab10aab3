/* -l -f: probes of one function ("-f write" is "::write:") */
