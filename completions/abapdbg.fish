complete --keep-order --exclusive --command abapdbg --arguments "(COMPLETE=fish abapdbg -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
