# a node that drifted from its locked image: what changed, and exit 1
args: doctor --nvml none --fsroot tests/fixtures/sysfs/node-drift --matrix tests/fixtures/matrix/h100-image.yaml
covers: spec hw health render
exit: 1
stdout-has: FAIL  version.matrix        node: differs from its image 'h100-2024q1' (tests/fixtures/matrix/h100-image.yaml line 6): kernel 6.1.0-21-amd64 (allowed 6.1.0-18-amd64); driver 535.161.08 (allowed 550.54.*)
stdout-has: WARN  version.nic_firmware  node: 28.39.1002 (mlx5_0), 28.37.1014 (mlx5_1) [sys/class/infiniband/*/fw_ver] (mixed)
stdout-has: WARN  cpu.governor          node: 4 of 8 CPUs not on 'performance' (e.g. 'powersave')
stdout-has: WARN  cpu.numa_balancing    node: kernel.numa_balancing = 1
stderr-empty:
