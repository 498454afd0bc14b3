# `acs cmdline` on the unprivileged view cannot know which ports have ACS. It must
# not silently print a different argument than root gets: warn on stderr that it
# needs root, or fail.
newroot dgx8
useconf gpu-p2p
hp acs cmdline
expect_rc 0
cp "$T/out" "$T/root-view"
newroot dgx8-nonroot
useconf gpu-p2p
hp acs cmdline
if cmp -s "$T/out" "$T/root-view"; then
	:
elif [ "$RC" = 0 ] && ! grep -qi 'root' "$T/err"; then
	fail "non-root acs cmdline prints a different argument than root, exit 0, no warning:"
	diff <(tr ';' '\n' <"$T/root-view") <(tr ';' '\n' <"$T/out") | sed 's/^/    /' | head
fi
