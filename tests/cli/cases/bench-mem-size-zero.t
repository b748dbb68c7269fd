# --mem-size 0 would silently become the backend's 64 MiB
args: bench memory --mem-size 0
covers: spec model bench report
exit: 2
stderr-has: --mem-size: a size of 0 bytes
