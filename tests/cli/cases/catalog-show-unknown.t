# an unknown name: exit 2 with did-you-mean across every kind
args: catalog show qm970
covers: spec render catalog
exit: 2
stderr-has: no catalog entry 'qm970' (did you mean 'qm9700'?)
