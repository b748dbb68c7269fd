# sweep needs --set
args: sweep --model llama3-8b
covers: spec net workload study render
exit: 2
stderr-has: sweep needs --set KEY=V1,V2,...
