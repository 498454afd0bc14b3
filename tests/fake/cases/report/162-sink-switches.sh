# Prometheus=no / NFD=no: nothing is written although the directories exist; custom
# paths are honoured; an explicit Prometheus=yes without its directory is a warning.
. "$HERE/lib-sinks.sh"
newroot dgx8
useconf gpu-p2p
dropin sinks-off 50-sinks.conf
sink_dirs
hp check
expect_rc 1
left=$(find "$R/$PROM_DIR" "$R/$NFD_DIR" -mindepth 1)
[ -z "$left" ] || fail "a switched-off sink wrote: $left"

newroot dgx8
useconf gpu-p2p
dropin sinks-custom 50-sinks.conf
hp check
expect_rc 1
expect_grep err '50-sinks.conf:3: Prometheus=yes but the directory of .*/srv/textfile/hostprep.prom. does not exist'
mkdir -p "$R/srv/textfile" "$R/srv/nfd/features.d"
hp check
expect_rc 1
expect_promtool "$R/srv/textfile/hostprep.prom"
expect_nfd_rules "$R/srv/nfd/features.d/hostprep-gpu"
expect_no_grep err 'does not exist'
hp config
expect_grep out '^PrometheusDir=/srv/textfile$'
expect_grep out '^NFD=yes$'
