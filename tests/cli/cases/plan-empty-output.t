# an empty value after '=' is refused, not taken as no option
args: plan --ledger=
exit: 2
stderr-has: '--ledger=' has an empty value
