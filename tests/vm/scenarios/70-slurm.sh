# Slurm drains and resumes the node on hostprep's verdict (issue 21), with
# Debian 12's real slurmctld, slurmd and munge: a one-node cluster
# (SlurmctldHost= and NodeName= = the guest's short hostname,
# proctrack/linuxproc, no cgroup plugin), HealthCheckProgram = the installed
# /usr/lib/hostprep/slurm-health-check, HealthCheckInterval=5. rxe0 on the
# only NIC is the RDMA port hostprep checks.
# Ready at boot: the node is idle and a job runs. The cable is pulled (QEMU
# monitor) and hostprep rerun: the node drains with "hostprep: NOT READY:
# rdma.port rxe0/1 ..." (sinfo, scontrol) and a job submitted then stays
# PENDING. The cable is back and hostprep rerun: the node resumes and the
# pending job runs. An admin's drain survives both verdicts: READY does not
# resume it, NOT READY does not overwrite its reason.
# slurmd runs behind the shipped boot gate (slurmd-10-hostprep.conf,
# ExecCondition=+hostprep gate %n; issue 25): started on the READY host it
# passed the gate; 'systemctl restart slurmd' while NOT READY (a package
# upgrade, an Ansible handler) keeps it running and a running job alive
# (slurmd's journal says why). Boot 2 is NOT READY at boot (a drop-in expects
# an IOMMU the guest has not): the enabled slurmd, which ran in boot 1, is
# skipped by the gate, a manual start too; after the fix it starts.
# Oracles: Slurm's own view (scontrol show node, sinfo, squeue/sacct-less job
# state via scontrol show job), the job's output file, rdma link, systemd's
# unit properties, /proc/sys/kernel/random/boot_id.
KERNEL_ARGS="no_timer_check"
QEMU_DEVICES="$(qemu_rootport_nic 2)"
REBOOTS=1
TIMEOUT=420
HOSTPREP_CONF='# only the rules below: switch off the vendor rule (/usr/lib/hostprep/hostprep.conf)
[ACS:gpu-paths]
Enabled=no

[Host]
Wait=0

[Port:rxe]
Select=rxe*
LinkLayer=Ethernet'

guest_prep() {
	prep_boot_unit rxe hostprep.service 'rxe_add rxe0 2 192.168.70.1/24'
	# the shipped gate, as an admin installs it
	mkdir -p /etc/systemd/system/slurmd.service.d
	cp /usr/share/doc/hostprep/examples/fleet/slurm/slurmd-10-hostprep.conf \
		/etc/systemd/system/slurmd.service.d/10-hostprep.conf
}

# slurm_setup: the one-node cluster's config, a munge key, the daemons started
slurm_setup() {
	local h
	h=$(hostname -s)
	mkdir -p /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
	chown slurm: /var/lib/slurm/slurmctld /var/log/slurm
	cat >/etc/slurm/slurm.conf <<EOF
ClusterName=vmtest
SlurmctldHost=$h
SlurmUser=slurm
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=300
HealthCheckProgram=/usr/lib/hostprep/slurm-health-check
HealthCheckInterval=5
HealthCheckNodeState=ANY
NodeName=$h CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	[ -s /etc/munge/munge.key ] || {
		dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
		chown munge: /etc/munge/munge.key
		chmod 400 /etc/munge/munge.key
	}
	assert_rc 0 "munge, slurmctld, slurmd start" systemctl start munge slurmctld slurmd
}

node_field() { scontrol show node "$(hostname -s)" | sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" | head -n1; }
node_reason() { scontrol show node "$(hostname -s)" | sed -n 's/^[[:space:]]*Reason=//p'; }
node_state_matches() { node_field State | grep -Eq "$1"; }
reason_matches() { node_reason | grep -Eq "$1"; }
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([^[:space:]]*\).*/\1/p'; }
job_state_is() { [ "$(job_state "$1")" = "$2" ]; }
# submit NAME: a batch job writing /tmp/NAME.out; prints the job id
submit() { sbatch --parsable -N1 -t 1 -o "/tmp/$1.out" --wrap "echo $1 ran on \$(hostname -s)"; }
# submit_long NAME SECONDS: a job that sleeps, then writes /tmp/NAME.out
submit_long() { sbatch --parsable -N1 -t 3 -o "/tmp/$1.out" --wrap "sleep $2; echo $1 ran on \$(hostname -s)"; }
# rerun: hostprep publishes a new verdict (the way an admin reruns it)
rerun() {
	run_cmd systemctl restart hostprep.service
	run_cmd hostprep status --oneline
}
slurmd_running() { [ "$(unit_prop slurmd.service ActiveState)" = active ] && pgrep -x slurmd >/dev/null; }

guest_check() {
	local h if0 j0 j1 j2 j3 pid t0
	h=$(hostname -s) if0=$(nic_behind 2)
	assert_rc 0 "hostprep status at boot: ready" hostprep status --oneline
	slurm_setup
	wait_until 60 node_state_matches '^IDLE$' ||
		fail "node never became IDLE: $(node_field State) $(node_reason)"
	run_cmd sinfo -N -l
	assert_eq "$(node_field State)" IDLE "ready: node $h IDLE"
	j1=$(submit job1)
	wait_until 60 job_state_is "$j1" COMPLETED
	assert_eq "$(job_state "$j1")" COMPLETED "ready: job $j1 completed"
	assert_eq "$(cat /tmp/job1.out 2>/dev/null)" "job1 ran on $h" "ready: the job's output"
	assert_match "$(unit_prop slurmd.service DropInPaths)" "slurmd\.service\.d/10-hostprep\.conf" \
		"slurmd has the shipped gate drop-in"
	assert_match "$(unit_prop slurmd.service ExecCondition)" "hostprep gate slurmd\.service" "slurmd's ExecCondition= is the gate"
	assert_eq "$(cat /run/hostprep/gate/slurmd.service 2>&1)" "$(cat /proc/sys/kernel/random/boot_id)" \
		"slurmd passed the gate on the READY host: recorded with this boot's ID"
	# a job that runs across the break and slurmd's restart below
	j0=$(submit_long job0 90)
	wait_until 60 job_state_is "$j0" RUNNING
	assert_eq "$(job_state "$j0")" RUNNING "ready: the long job $j0 runs"

	# break: the cable out, rxe0/1 down, hostprep rerun -> drained with its reason
	hmp set_link nic-rp2 off
	wait_until 20 carrier_is "$if0" 0 || fail "carrier of $if0 still up"
	rerun
	assert_match "$OUT" "^NOT READY: rdma\.port:[a-z-]+ rxe0/1" "hostprep: NOT READY names rxe0/1"
	wait_until 60 node_state_matches 'DRAIN' || fail "node not drained: $(node_field State)"
	run_cmd sinfo -N -o '%N %T %E'
	# MIXED: the long job still holds a CPU on the draining node (DRAIN, not DRAINED)
	assert_match "$(node_field State)" '^(IDLE|MIXED)\+DRAIN$' "not ready: node drained (scontrol)"
	# A health check (every 5 s) that ran while the run was under way drained with the
	# report it found then, "run:unfinished" (never a stale READY); the next one puts the
	# run's own summary in its place.
	wait_until 30 reason_matches '^hostprep: NOT READY: rdma\.port' ||
		note "the reason is still: $(node_reason)"
	assert_match "$(node_reason)" '^hostprep: NOT READY: rdma\.port:[a-z-]+ rxe0/1( .*)? \[root@' \
		"not ready: reason is hostprep's one-line summary, set by root"
	assert_match "$(sinfo -h -N -n "$h" -o '%E')" '^hostprep: NOT READY: rdma\.port:[a-z-]+ rxe0/1' \
		"not ready: sinfo shows the reason"
	j2=$(submit job2)
	sleep 8
	assert_eq "$(job_state "$j2")" PENDING "not ready: job $j2 does not start"
	assert_eq "$(test -e /tmp/job2.out && echo started)" "" "not ready: job $j2 wrote nothing"

	# NOT READY, and slurmd is restarted (a package upgrade, an Ansible handler): it
	# passed the gate in this boot, so it starts again; the running job lives on
	pid=$(unit_prop slurmd.service MainPID)
	t0=$(date +%s)
	sleep 1 # the journal lines of this restart only (--since has whole seconds)
	assert_rc 0 "systemctl restart slurmd while NOT READY" systemctl restart slurmd.service
	if wait_until 20 slurmd_running; then ok "slurmd runs after its restart while NOT READY"; else fail "slurmd not running after its restart: $(unit_prop slurmd.service ActiveState) $(unit_prop slurmd.service Result)"; fi
	assert_ne "$(unit_prop slurmd.service MainPID)" "$pid" "slurmd was restarted (a new MainPID)"
	run_cmd journalctl -b -o cat -u slurmd.service --since "@$((t0 + 1))"
	assert_match "$OUT" "^NOT READY: rdma\.port:[a-z-]+ rxe0/1" "the restart's gate logged the verdict"
	assert_match "$OUT" "slurmd\.service already passed this gate in this boot" "... and why slurmd starts anyway"
	sleep 6 # slurmd registers again
	assert_eq "$(job_state "$j0")" RUNNING "the long job $j0 still runs after slurmd's restart"
	assert_no_match "$(node_field State)" 'DOWN' "the node is not DOWN"

	# fix: the cable back, hostprep rerun -> resumed, the pending job runs
	hmp set_link nic-rp2 on
	wait_until 20 carrier_is "$if0" 1 || fail "carrier of $if0 still down"
	wait_until 20 sh -c '[ "$(rdma link show rxe0/1 | grep -o "state [A-Z]*")" = "state ACTIVE" ]'
	rerun
	assert_match "$OUT" '^READY' "hostprep: READY again"
	wait_until 60 job_state_is "$j2" COMPLETED
	assert_eq "$(job_state "$j2")" COMPLETED "fixed: the pending job $j2 ran"
	assert_eq "$(cat /tmp/job2.out 2>/dev/null)" "job2 ran on $h" "fixed: its output"
	assert_no_match "$(node_field State)" 'DRAIN' "fixed: node resumed"
	assert_eq "$(node_reason)" "" "fixed: no reason left"
	wait_until 120 job_state_is "$j0" COMPLETED
	assert_eq "$(job_state "$j0")" COMPLETED "the long job $j0 ran to its end across slurmd's restart"
	assert_eq "$(cat /tmp/job0.out 2>/dev/null)" "job0 ran on $h" "... its output"

	# an admin's drain survives READY ...
	assert_rc 0 "admin drains" scontrol update nodename="$h" state=drain reason="admin: disk swap"
	sleep 12 # more than two HealthCheckIntervals
	assert_match "$(node_field State)" 'DRAIN' "admin's drain survives READY"
	assert_match "$(node_reason)" '^admin: disk swap \[' "admin's reason kept under READY"
	# ... and NOT READY: its reason is not overwritten (a later READY could resume it)
	hmp set_link nic-rp2 off
	wait_until 20 carrier_is "$if0" 0 || fail "carrier of $if0 still up"
	rerun
	assert_match "$OUT" "^NOT READY" "hostprep: NOT READY again"
	sleep 12
	assert_match "$(node_reason)" '^admin: disk swap \[' "admin's reason kept under NOT READY"
	j3=$(submit job3)
	sleep 5
	assert_eq "$(job_state "$j3")" PENDING "admin's drain: job $j3 does not start"
	run_cmd journalctl -b --no-pager -o cat -t hostprep-slurm-health-check
	assert_match "$OUT" "^drained $h: hostprep: NOT READY: rdma\.port:[a-z-]+ rxe0/1" "journal: the health check logged its drain"
	assert_match "$OUT" "^resumed $h \(was: hostprep: NOT READY" "journal: ... and its resume"
	assert_match "$OUT" "^$h already has a reason not from hostprep \('admin: disk swap'\)" \
		"journal: ... and why it left the admin's drain"

	# boot 2: the daemons start at boot, and the host is NOT READY then
	assert_rc 0 "enable munge, slurmctld, slurmd" systemctl enable munge slurmctld slurmd
	mkdir -p /etc/hostprep/hostprep.conf.d
	printf '[IOMMU]\nExpect=passthrough\n' >/etc/hostprep/hostprep.conf.d/90-vmtest-boot2.conf
	cat /proc/sys/kernel/random/boot_id >/var/lib/vmtest-boot1-id
}

# boot 2, NOT READY at boot (no IOMMU for Expect=passthrough): slurmd ran in boot 1,
# yet its first start of this boot is held back
guest_check_boot2() {
	assert_rc 1 "boot 2: hostprep status: NOT READY" hostprep status --oneline
	assert_eq "$(unit_prop slurmctld.service ActiveState)" active "boot 2: slurmctld started at boot"
	assert_eq "$(unit_prop slurmd.service UnitFileState)" enabled "boot 2: slurmd is enabled"
	assert_ne "$(unit_prop slurmd.service ActiveState)" active "boot 2: slurmd not started on a host that is not ready"
	assert_eq "$(unit_prop slurmd.service Result)" exec-condition "boot 2: slurmd skipped by the gate (not failed)"
	if pgrep -x slurmd >/dev/null; then fail "boot 2: a slurmd process exists"; else ok "boot 2: no slurmd process"; fi
	assert_match "$(journalctl -b -o cat -u slurmd.service)" "NOT READY: iommu\.mode:config" \
		"boot 2: slurmd's journal names the failing check"
	assert_eq "$(ls -A /run/hostprep/gate 2>/dev/null)" "" "boot 2: no record (boot 1's went with /run)"
	assert_ne "$(cat /proc/sys/kernel/random/boot_id)" "$(cat /var/lib/vmtest-boot1-id 2>&1)" "boot 2 has another boot ID"
	run_cmd systemctl start slurmd.service
	assert_ne "$(unit_prop slurmd.service ActiveState)" active "boot 2: a manual start is held back too"
	# the fix: the next start passes and is recorded
	rm /etc/hostprep/hostprep.conf.d/90-vmtest-boot2.conf
	assert_rc 0 "boot 2: systemctl start slurmd after the fix" systemctl start slurmd.service
	if wait_until 20 slurmd_running; then ok "boot 2: slurmd runs after the fix"; else fail "boot 2: slurmd not running: $(unit_prop slurmd.service ActiveState) $(unit_prop slurmd.service Result)"; fi
	assert_eq "$(cat /run/hostprep/gate/slurmd.service 2>&1)" "$(cat /proc/sys/kernel/random/boot_id)" \
		"boot 2: the pass recorded with boot 2's ID"
}
