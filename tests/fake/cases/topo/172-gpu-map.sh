# The GPU map without NVML: apply writes <root>/run/hostprep/gpus.json (check and dry runs
# do not); each GPU's UUID/minor come from its proc/driver/nvidia entry (oracle: the entry
# files read here with awk), index is PCI order, nearest NICs from the topology; a GPU
# without an entry and an entry without a GPU are reported; AMD-style hosts without the
# driver say so.
newroot ib-gpu
hp check
[ -e "$R/run/hostprep/gpus.json" ] && fail "check wrote gpus.json"
hp apply --dry-run
[ -e "$R/run/hostprep/gpus.json" ] && fail "apply --dry-run wrote gpus.json"
hp apply
expect_rc 0
j=$R/run/hostprep/gpus.json
[ -f "$j" ] || fail "apply did not write gpus.json"
[ "$(stat -c %a "$j")" = 644 ] || fail "gpus.json mode $(stat -c %a "$j")"
ls -A "$R/run/hostprep" | grep -q tmp && fail "temp file left in run/hostprep"
jq -e '.schema == 1 and .nvidia_driver == true and (.gpus | length) == 8 and (.driver_entries_without_pci | length) == 0' "$j" >/dev/null ||
	fail "gpus.json header: $(head -c 300 "$j")"
# oracle: every entry file, parsed independently
for info in "$R"/proc/driver/nvidia/gpus/*/information; do
	bus=$(awk -F': *\t *' '/^Bus Location/ {print $2}' "$info")
	uuid=$(awk -F': *\t *' '/^GPU UUID/ {print $2}' "$info")
	minor=$(awk -F': *\t *' '/^Device Minor/ {print $2}' "$info")
	got=$(jq -r --arg b "$bus" '.gpus[] | select(.pci == $b) | "\(.uuid) \(.minor) \(.model)"' "$j")
	[ "$got" = "$uuid $minor NVIDIA H100 80GB HBM3" ] || fail "$bus: want '$uuid $minor', got '$got'"
done
# index = PCI order; minor is the driver's (0000:3a:00.0 is index 2, minor 0)
jq -e '[.gpus[].pci] == ([.gpus[].pci] | sort) and ([.gpus[].index] == [0,1,2,3,4,5,6,7])' "$j" >/dev/null || fail "index is not PCI order"
jq -e '.gpus[2] | .pci == "0000:3a:00.0" and .minor == 0 and .numa_node == 0 and .cpulist == "0-55,112-167"' "$j" >/dev/null || fail "GPU 2: $(jq -c '.gpus[2]' "$j")"
# the NIC below the same switch, by RDMA name, PIX
jq -e '.gpus[0].nearest_nics == [{"name": "mlx5_0", "pci": "0000:1a:00.0", "distance": "PIX"}]' "$j" >/dev/null ||
	fail "GPU 0 nearest NIC: $(jq -c '.gpus[0].nearest_nics' "$j")"
jq -e '.gpus[7].nearest_nics[0].name == "mlx5_6" and .gpus[7].numa_node == 1' "$j" >/dev/null || fail "GPU 7: $(jq -c '.gpus[7]' "$j")"
jq -e '[.gpus[].problem] | all(. == null)' "$j" >/dev/null || fail "a problem on a healthy host"
# topology --json carries the same document
hp --json topology
jq -e --slurpfile f "$j" '.gpu_map == $f[0]' "$T/out" >/dev/null || fail "topology --json gpu_map differs from gpus.json"

# A GPU the driver did not take, and an entry whose GPU fell off the bus.
newroot dgx8-gpu-lost
hp apply
j=$R/run/hostprep/gpus.json
jq -e '.gpus[3] | .pci == "0000:3b:00.0" and .uuid == null and .minor == null and (.problem | test("did not take"))' "$j" >/dev/null ||
	fail "missing entry not reported: $(jq -c '.gpus[3]' "$j")"
jq -e '.driver_entries_without_pci == [{"pci": "0000:5e:00.0", "uuid": "GPU-5a4f8ad7-dead-9a2b-1f3e-1b8bc2d4a000", "minor": 8}]' "$j" >/dev/null ||
	fail "orphan entry: $(jq -c '.driver_entries_without_pci' "$j")"
hp topology
expect_grep out 'driver entry 0000:5e:00\.0 .* has no PCI GPU'
expect_grep out 'no NVIDIA driver entry: the driver did not take this GPU'
# nvidia-smi and CUDA count only the GPUs the driver took: 3b has no index, 9a is 3
# (an audit found 3b given 3 and every later index one off)
jq -e '[.gpus[] | .index] == [0,1,2,null,3,4,5,6]' "$j" >/dev/null ||
	fail "indexes with a GPU the driver did not take: $(jq -c '[.gpus[] | .index]' "$j")"

# A GPU the driver excluded (NVreg_ExcludedGpus: "GPU Excluded: Yes"): no index, a
# problem, and gpu.present fails
newroot dgx8
f=$R/proc/driver/nvidia/gpus/0000:3a:00.0/information
chmod u+w "$f"
sed -i 's/^GPU Excluded:\t No$/GPU Excluded:\t Yes/' "$f"
grep -q 'GPU Excluded:.*Yes' "$f" || fail "the fixture's entry has no 'GPU Excluded' line"
mkdir -p "$R/sys/module/nvidia"
echo 580.65.06 >"$R/sys/module/nvidia/version"
printf '[GPU]\nPersistence=any\n' >"$R/etc/hostprep/hostprep.conf"
hp --json topology
jq -e '[.gpu_map.gpus[] | .index] == [0,1,null,2,3,4,5,6] and (.gpu_map.gpus[2].problem | test("^excluded by the driver"))' "$T/out" >/dev/null ||
	fail "an excluded GPU: $(jq -c '[.gpu_map.gpus[] | [.index, .problem]]' "$T/out")"
hp --json check
[ "$(jqo '.results[] | select(.check == "gpu.present" and .object == "0000:3a:00.0") | .verdict')" = fail ] ||
	fail "gpu.present of an excluded GPU: $(jqo -c '.results[] | select(.check == "gpu.present" and .object == "0000:3a:00.0")')"

# No nvidia module (l40-amd has no proc/driver/nvidia): every NVIDIA GPU says why.
newroot l40-amd
hp apply
j=$R/run/hostprep/gpus.json
jq -e '.nvidia_driver == false and (.gpus | length) == 4 and ([.gpus[].problem] | all(test("not loaded")))' "$j" >/dev/null ||
	fail "l40-amd: $(head -c 400 "$j")"
true
