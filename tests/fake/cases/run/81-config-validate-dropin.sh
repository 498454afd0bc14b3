# issue 6 item 13: config --validate FILE validates FILE as it would be used: a
# drop-in layered over the installed configuration (same name replaces the
# installed one), a file named hostprep.conf in place of /etc's main file. No
# cascading "has no Select=" after a bad selector, no "set Enabled=no" advice.
newroot dgx8
useconf gpu-p2p
# 1. the README's mask-only drop-in validates
install -m 0644 "$HERE/configs/mask-only.conf" "$T/60-mask.conf"
hp config --validate "$T/60-mask.conf"
expect_rc 0
expect_grep out "60-mask\.conf: ok" "mask-only drop-in not ok"
expect_no_grep err 'Enabled=no' "advice to turn the rule off"
# 2. an error in it is reported with its own file:line; nothing else is reported
printf '[ACS:gpu-p2p]\nMask=0000000\nSelect=upstream:10de:* class:03zz\n' >"$T/60-bad.conf"
hp config --validate "$T/60-bad.conf"
expect_rc 2
expect_grep err "$T/60-bad\.conf:3: Select=: invalid selector 'class:03zz'" "error not at the file's line"
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one message for one bad selector: $(cat "$T/err")"
# 3. a rule whose only Select= is invalid: one error, no "has no Select="
printf '[ACS:new]\nSelect=class:03zz\n' >"$T/70-new.conf"
hp config --validate "$T/70-new.conf"
expect_rc 2
expect_grep err "70-new\.conf:2: Select=: invalid selector" "bad selector not reported"
expect_no_grep err 'no Select|Enabled=no' "cascading error after a bad selector"
# 4. same name replaces the installed drop-in (the installed one is broken, the new one fixes it)
ref_private
for d in "$R" "$REF"; do
	install -d -m 0755 "$d/etc/hostprep/hostprep.conf.d"
	printf '[IOMMU]\nExpect=bogus\n' >"$d/etc/hostprep/hostprep.conf.d/50-site.conf"
done
printf '[IOMMU]\nExpect=off\n' >"$T/50-site.conf"
hp config --validate "$T/50-site.conf"
expect_rc 0
hp config --validate "$T/60-mask.conf"
expect_rc 2
expect_grep err 'hostprep\.conf\.d/50-site\.conf:2: Expect=: invalid value' "the installed broken drop-in is not part of the layering"
# 5. a full main config named hostprep.conf replaces /etc/hostprep/hostprep.conf
rm -f "$R/etc/hostprep/hostprep.conf.d/50-site.conf" "$REF/etc/hostprep/hostprep.conf.d/50-site.conf"
mkdir -p "$T/new"
printf '[Host]\nApply=no\n' >"$T/new/hostprep.conf"
hp config --validate "$T/new/hostprep.conf"
expect_rc 0
expect_tree_same
