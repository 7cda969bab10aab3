/* an error in a -n program's actions is "in action list" */
