/* -P: every probe of a provider, with the clause's action */
