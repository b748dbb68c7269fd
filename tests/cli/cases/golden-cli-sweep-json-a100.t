# sweep's JSON on a fixture, whole
args: sweep tests/fixtures/train/a100-64.yaml --set supernodes=4,8 --model gpt3-175b --gbs 64 --format json
exit: 0
stdout: tests/cli/expected/golden-cli-sweep-json-a100.out
