/* -l expands $target: -c's command is started to list its pid probes */
