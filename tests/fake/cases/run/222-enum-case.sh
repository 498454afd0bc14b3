# Issue 18: enum values match case-insensitively, as booleans do (Apply=YES):
# LinkLayer=infiniband is LinkLayer=InfiniBand. `hostprep config` prints each one in
# its documented spelling; a value that is no name in any case is still an error.
newroot dgx8
cat >"$T/mixed.conf" <<'CONF'
[IOMMU]
Expect=PassThrough

[Port:rails]
Select=mlx5_*
LinkLayer=infiniband

[Port:lag]
Select=mlx5_bond_*
LinkLayer=ETHERNET

[Port:other]
Select=erdma_*
LinkLayer=Any

[Bond:bond0]
Mode=Active-Backup

[Links]
Degraded=FAIL

[Workload]
NetnsMode=Shared

[Module:erdma]
Reload=Unused
Origin=OFED
Parameter=compat_mode=1
CONF
hp --config "$T/mixed.conf" config
expect_rc 0
expect_grep out '^Expect=passthrough$' "Expect= not normalized"
expect_grep out '^LinkLayer=InfiniBand$' "LinkLayer=infiniband not read as InfiniBand"
expect_grep out '^LinkLayer=Ethernet$' "LinkLayer=ETHERNET not read as Ethernet"
expect_grep out '^Mode=active-backup$' "Mode= not normalized"
expect_grep out '^Degraded=fail$' "Degraded= not normalized"
expect_grep out '^NetnsMode=shared$' "NetnsMode= not normalized"
expect_grep out '^Reload=unused$' "Reload= not normalized"
expect_grep out '^Origin=ofed$' "Origin= not normalized"
# still strict about the name itself
printf '[Port:x]\nSelect=mlx5_0\nLinkLayer=infini-band\n' >"$T/bad.conf"
hp --config "$T/bad.conf" config
expect_rc 2
expect_grep err 'bad\.conf:3: LinkLayer=: unknown link layer' "a wrong name is not named file:line"
