# a --since that is no time is a usage error naming the forms
args: events list --db $TMP/r.db --since yesterday
covers: store render
exit: 2
stderr-has: --since 'yesterday': expected a time such as 2026-12-01T08:00:00Z
