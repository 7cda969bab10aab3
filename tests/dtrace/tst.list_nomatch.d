/* -l with a description that matches nothing: dtrace's header, then its message (status 0, as dtrace) */
