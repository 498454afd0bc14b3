// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hostprep snapshot's path rules: normalization (".." above the root is refused), where a
 * symlink leads (inside the root, as a chroot reads it), what is never captured, the string
 * set that keeps the capture order, names in the manifest; and the redactors: every GRUB
 * and kernel command line form of a secret cut out, every other byte kept.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "snapshot/snapshot.h"

static void assert_norm(const char *in, int rc, const char *out)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", in);
	assert_int_equal(snapshot_normalize(buf), rc);
	if (rc == 0)
		assert_string_equal(buf, out);
}

static void test_normalize(void **state)
{
	assert_norm("sys/bus/pci", 0, "sys/bus/pci");
	assert_norm("a/./b//../c/", 0, "a/c");
	assert_norm("/sys//class/", 0, "sys/class");
	assert_norm("a/..", 0, "");
	assert_norm(".", 0, "");
	assert_norm("..", -EXDEV, NULL);
	assert_norm("a/../..", -EXDEV, NULL);
	assert_norm("a/../../a", -EXDEV, NULL);
	assert_norm("a/b/../../c", 0, "c");
	assert_norm("..a/b", 0, "..a/b"); /* a name, not a step up */
	assert_norm("a/...", 0, "a/...");
}

static void assert_target(const char *rel, const char *text, const char *out)
{
	char *t = NULL;

	assert_int_equal(snapshot_link_target(rel, text, &t), 0);
	assert_string_equal(t, out);
	free(t);
}

static void test_link_target(void **state)
{
	/* sysfs: relative links */
	assert_target("sys/bus/pci/devices/0000:00:01.0",
		      "../../../devices/pci0000:00/0000:00:01.0",
		      "sys/devices/pci0000:00/0000:00:01.0");
	assert_target("sys/class/net/eth0", "../../devices/virtual/net/eth0",
		      "sys/devices/virtual/net/eth0");
	/* up to the root is inside it; ".." at the root stays there, as RESOLVE_IN_ROOT reads */
	assert_target("etc/modprobe.d/x.conf", "../../y", "y");
	assert_target("etc/modprobe.d/x.conf", "../../../y", "y");
	assert_target("x", "..", "");
	/* absolute: below the root, whatever the root (Debian's alternatives) */
	assert_target("etc/modprobe.d/nvidia.conf", "/etc/alternatives/nvidia-modprobe.conf",
		      "etc/alternatives/nvidia-modprobe.conf");
	assert_target("etc/modprobe.d/x.conf", "/usr/share/x.conf", "usr/share/x.conf");
	assert_target("etc/x", "/../../etc/shadow", "etc/shadow");
	/* a link at the top of the root */
	assert_target("lnk", "etc/hostprep", "etc/hostprep");
}

static void test_refused(void **state)
{
	static const char *const no[] = {
		"proc",
		"proc/1",
		"proc/1/environ",
		"proc/self",
		"proc/self/fd/3",
		"proc/kcore",
		"etc/shadow",
		"etc/shadow-",
		"etc/gshadow",
		"etc/ssh",
		"etc/ssh/ssh_host_ed25519_key",
		"var/log",
		"var/log/journal/x",
		"dev",
		"dev/null",
		"dev/shm/x",
		"sys",
		"run/log/journal",
	};
	static const char *const yes[] = {
		"proc/cmdline",
		"proc/modules",
		"proc/sys/kernel/osrelease",
		"proc/net/bonding/bond0",
		"proc/driver/nvidia/gpus",
		"dev/infiniband",
		"dev/infiniband/uverbs0",
		"sys/bus/pci",
		"etc/hostprep",
		"etc/modprobe.d",
		"etc/sshd-not-ssh",
		"var/lib/hostprep/originals",
	};

	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!snapshot_refused(no[i]))
			fail_msg("%s is captured", no[i]);
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (snapshot_refused(yes[i]))
			fail_msg("%s is refused", yes[i]);
}

static void test_strset(void **state)
{
	struct strset s = {};
	char buf[32];

	assert_false(strset_has(&s, "a"));
	assert_int_equal(strset_add(&s, "a"), 1);
	assert_int_equal(strset_add(&s, "a"), 0);
	assert_true(strset_has(&s, "a"));
	/* across several growths, the order kept and every member found */
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "p/%d", i);
		assert_int_equal(strset_add(&s, buf), 1);
	}
	assert_int_equal(s.n, 5001);
	assert_string_equal(s.order[0], "a");
	assert_string_equal(s.order[5000], "p/4999");
	for (int i = 0; i < 5000; i++) {
		snprintf(buf, sizeof(buf), "p/%d", i);
		assert_true(strset_has(&s, buf));
		assert_int_equal(strset_add(&s, buf), 0);
	}
	assert_false(strset_has(&s, "p/5000"));
	/* the *_hashed calls are the same set: one hash, asked of it and added through it */
	assert_true(strset_has_hashed(&s, "p/17", strset_hash("p/17")));
	assert_false(strset_has_hashed(&s, "p/5000", strset_hash("p/5000")));
	assert_int_equal(strset_add_hashed(&s, "p/17", strset_hash("p/17")), 0);
	assert_int_equal(strset_add_hashed(&s, "p/5000", strset_hash("p/5000")), 1);
	assert_true(strset_has(&s, "p/5000"));
	assert_string_equal(s.order[5001], "p/5000");
	strset_done(&s);
	assert_int_equal(s.n, 0);
	/* one hash, two strings: the text decides (a set that trusted the hash took one) */
	assert_int_equal(strset_add_hashed(&s, "x", 5), 1);
	assert_int_equal(strset_add_hashed(&s, "y", 5), 1);
	assert_int_equal(strset_add_hashed(&s, "y", 5), 0);
	assert_true(strset_has_hashed(&s, "x", 5));
	assert_true(strset_has_hashed(&s, "y", 5));
	assert_false(strset_has_hashed(&s, "z", 5));
	assert_false(strset_has_hashed(&s, "x", 6));
	strset_done(&s);
}

/* snapshot_fnmatch() is fnmatch() == 0: every pattern of the walk's rules, every flag. */
static void test_fnmatch(void **state)
{
	static const char *const pats[] = {
		"proc",
		"sys",
		"proc/[0-9]*",
		"etc/shadow*",
		"dev/*",
		"dev/infiniband",
		"dev/infiniband/*",
		"sys/devices/*",
		"resource[0-9]*",
		"rom",
		"virtio[0-9]*",
		"*modprobe.d/*",
		"*modprobe.d",
		"*.conf",
		"modules.*",
		"run/hostprep/*.json",
		"a\\*b",
		"*",
		"",
		"lib/modules/*",
		"consumer:*",
		"physical_node*",
	};
	static const char *const strs[] = {
		"proc",
		"proc/1",
		"proc/12/status",
		"proc/self",
		"procx",
		"sys",
		"sys/devices/pci0000:00/0000:00:01.0/resource0",
		"resource0_wc",
		"resource",
		"rom",
		"romx",
		"dev",
		"dev/infiniband",
		"dev/infiniband/uverbs0",
		"dev/sda",
		"etc/shadow",
		"etc/shadow-",
		"etc/modprobe.d/x.conf",
		"usr/lib/modprobe.d/y.conf",
		"modprobe.d",
		".hidden.conf",
		"x.conf",
		"modules.dep",
		"run/hostprep/report.json",
		"run/hostprep/sub/x.json",
		"a*b",
		"axb",
		"",
		"virtio0",
		"virtio",
		"lib/modules/6.1.0/modules.dep",
		"consumer:pci:0000:00:01.0",
		"physical_node1",
	};
	static const int flags[] = { 0, FNM_PATHNAME, FNM_PATHNAME | FNM_LEADING_DIR, FNM_PERIOD,
				     FNM_LEADING_DIR };

	(void)state;
	for (size_t p = 0; p < sizeof(pats) / sizeof(pats[0]); p++)
		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
			for (size_t f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
				bool want = fnmatch(pats[p], strs[i], flags[f]) == 0;

				if (snapshot_fnmatch(pats[p], strs[i], flags[f]) != want)
					fail_msg("'%s' '%s' flags %d: fnmatch says %d", pats[p],
						 strs[i], flags[f], want);
			}
}

static void test_utf8_escape(void **state)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	assert_true(snapshot_utf8("etc/modprobe.d/x.conf"));
	assert_true(snapshot_utf8("caf\xc3\xa9"));
	assert_true(snapshot_utf8("\xf0\x9f\x98\x80"));
	assert_false(snapshot_utf8("bad\xff.conf"));
	assert_false(snapshot_utf8("\xc3"));	     /* cut */
	assert_false(snapshot_utf8("\xc0\xaf"));     /* overlong '/' */
	assert_false(snapshot_utf8("\xed\xa0\x80")); /* a surrogate */
	assert_false(snapshot_utf8("\xf4\x90\x80\x80"));

	f = open_memstream(&buf, &size);
	snapshot_escape(f, "a\\b\nc\xff\xc3\xa9\x7f");
	fclose(f);
	assert_string_equal(buf, "a\\\\b\\x0ac\\xff\xc3\xa9\\x7f");
	free(buf);
}

/* in redacted by readers must be out exactly, with notes (the manifest lines) */
static void assert_redact(unsigned readers, const char *in, const char *out, const char *notes)
{
	char *got = NULL, *n = NULL;
	size_t size = 0, nsize = 0;
	FILE *f = open_memstream(&n, &nsize);
	int r = snapshot_redact(readers, "f", in, strlen(in), &got, &size, f);

	fclose(f);
	assert_true(r >= 0);
	if (r == 0) {
		assert_null(got);
		assert_string_equal(in, out);
	} else {
		if (size != strlen(out) || memcmp(got, out, size) != 0)
			fail_msg("redacted:\n%.*s\nwant:\n%s", (int)size, got, out);
	}
	if (notes && strcmp(n, notes) != 0)
		fail_msg("notes:\n%s\nwant:\n%s", n, notes);
	free(got);
	free(n);
}

#define CMD   SNAPSHOT_REDACT_CMDLINE
#define GRUB  (SNAPSHOT_REDACT_GRUB | SNAPSHOT_REDACT_CMDLINE)
#define SHELL (SNAPSHOT_REDACT_SHELL | SNAPSHOT_REDACT_CMDLINE)

static void test_redact_grub(void **state)
{
	/* the command, at the start of a line, indented, after ';', inside if/then, in a block */
	assert_redact(GRUB, "password_pbkdf2 root grub.pbkdf2.sha512.10000.AB.CD\n",
		      "password_pbkdf2 root REDACTED\n",
		      "redacted f:1: the hash of a password_pbkdf2 command\n");
	assert_redact(GRUB, "\t  password  admin plain\n", "\t  password  admin REDACTED\n",
		      "redacted f:1: the password of a password command\n");
	assert_redact(GRUB, "set superusers=\"root\"; password_pbkdf2 root H1;echo x\n",
		      "set superusers=\"root\"; password_pbkdf2 root REDACTED;echo x\n", NULL);
	assert_redact(GRUB, "if [ -f $prefix/u ]; then password root P; fi\n",
		      "if [ -f $prefix/u ]; then password root REDACTED; fi\n", NULL);
	assert_redact(
		GRUB, "if true\nthen\n  password root P\nelse password_pbkdf2 r H\nfi\n",
		"if true\nthen\n  password root REDACTED\nelse password_pbkdf2 r REDACTED\nfi\n",
		NULL);
	assert_redact(GRUB, "menuentry 'x' {password root P}\n",
		      "menuentry 'x' {password root REDACTED}\n", NULL);
	assert_redact(GRUB, "true && password root P || password root Q\n",
		      "true && password root REDACTED || password root REDACTED\n", NULL);
	/* across a continuation: the line count is kept */
	assert_redact(GRUB, "password_pbkdf2 root \\\n   grub.pbkdf2.H\nx\n",
		      "password_pbkdf2 root \\\n   REDACTED\nx\n",
		      "redacted f:2: the hash of a password_pbkdf2 command\n");
	assert_redact(GRUB, "password_pbkdf2 \\\nroot grub.pbkdf2.\\\nH2 after\n",
		      "password_pbkdf2 \\\nroot REDACTED\\\n REDACTED\n", NULL);
	/* quoted, and a quoted command name */
	assert_redact(GRUB, "password_pbkdf2 \"root\" 'H with space'\n",
		      "password_pbkdf2 \"root\" REDACTED\n", NULL);
	assert_redact(GRUB, "\"password\" root \"P\\\"Q\"\n", "\"password\" root REDACTED\n", NULL);
	assert_redact(GRUB, "pass\\\nword root P\n", "pass\\\nword root REDACTED\n", NULL);
	/* a commented-out line still holds the hash */
	assert_redact(GRUB, "#password_pbkdf2 root H\n", "#password_pbkdf2 root REDACTED\n", NULL);
	/*
	 * A comment ends at its newline: a quote in it opens nothing and a '\\' at its end
	 * joins nothing, so the command after it is still read as one (a "# Don't" once
	 * swallowed the rest of grub.cfg and kept the hash).
	 */
	assert_redact(GRUB, "# Don't ask for a password\npassword_pbkdf2 admin H\n",
		      "# Don't ask for a password\npassword_pbkdf2 admin REDACTED\n",
		      "redacted f:2: the hash of a password_pbkdf2 command\n");
	assert_redact(GRUB, "# a \"quote\npassword root P\n# \\\npassword root Q\n",
		      "# a \"quote\npassword root REDACTED\n# \\\npassword root REDACTED\n", NULL);
	assert_redact(GRUB, "#password_pbkdf2 root 'H1\nset x=1\n",
		      "#password_pbkdf2 root REDACTED\nset x=1\n", NULL);
	/* through a variable, and a variable named for a password (RHEL's user.cfg) */
	assert_redact(GRUB, "set pw=\"S1\"\nexport pw\npassword_pbkdf2 root ${pw}\n",
		      "set pw=REDACTED\nexport pw\npassword_pbkdf2 root REDACTED\n",
		      "redacted f:1: the value of pw (a password variable)\n"
		      "redacted f:3: the hash of a password_pbkdf2 command\n");
	assert_redact(GRUB, "GRUB2_PASSWORD=grub.pbkdf2.sha512.H\n", "GRUB2_PASSWORD=REDACTED\n",
		      NULL);
	assert_redact(GRUB, "pw2=S\npassword root $pw2\n", "pw2=REDACTED\npassword root REDACTED\n",
		      NULL);
	/* not a command: kept */
	assert_redact(GRUB, "echo password root P\nset pass_hint=none x=password\n",
		      "echo password root P\nset pass_hint=none x=password\n", "");
	assert_redact(GRUB, "password root\npassword_pbkdf2\n", "password root\npassword_pbkdf2\n",
		      "");
}

/* A grub.cfg without a secret comes out byte for byte. */
static void test_redact_grub_keeps(void **state)
{
	static const char cfg[] =
		"#\n# DO NOT EDIT THIS FILE\n#\nset default=\"0\"\nset timeout_style=menu\n"
		"if [ \"${next_entry}\" ] ; then\n   set default=\"${next_entry}\"\nfi\n"
		"function load_video {\n  insmod all_video\n}\nset superusers=\"root\"\n"
		"menuentry 'Debian GNU/Linux' --class debian --unrestricted $menuentry_id_option "
		"'gnulinux-simple-1' {\n\tload_video\n\tinsmod gzio\n"
		"\tlinux\t/boot/vmlinuz-6.1.0-27-amd64 root=UUID=1 ro quiet "
		"pci=config_acs=xx111x1@pci:10b5:c010 iommu.passthrough=1\n"
		"\tinitrd\t/boot/initrd.img-6.1.0-27-amd64\n}\n"
		"options root=UUID=2 ro ip=10.0.0.2::10.0.0.1:255.255.255.0:h:eth0:none\n"
		"GRUB_CMDLINE_LINUX=\"quiet root=nfs:10.0.0.1:/srv,vers=4\"\n"
		"passwordless=1 password_check x\ntitle passwords\n";

	assert_redact(GRUB, cfg, cfg, "");
}

static void test_redact_cmdline(void **state)
{
	/* iSCSI CHAP (dracut.cmdline(7)): all after the user name, up to the last '@' */
	assert_redact(CMD, "netroot=iscsi:u1:S1@10.0.0.1::3260::iqn.2009-06.dracut:t0\n",
		      "netroot=iscsi:u1:REDACTED@10.0.0.1::3260::iqn.2009-06.dracut:t0\n",
		      "redacted f:1: the iSCSI CHAP secrets of netroot=iscsi:\n");
	assert_redact(CMD, "root=iscsi:u:S1:ru:S2@[2001:db8::1]::::iqn.x:t",
		      "root=iscsi:u:REDACTED@[2001:db8::1]::::iqn.x:t", NULL);
	assert_redact(CMD, "netroot=iscsi:u:p@ss@10.0.0.1::::iqn.x",
		      "netroot=iscsi:u:REDACTED@10.0.0.1::::iqn.x", NULL);
	assert_redact(CMD, "netroot=iscsi:192.168.50.1::::iqn.2009-06.dracut:target0",
		      "netroot=iscsi:192.168.50.1::::iqn.2009-06.dracut:target0", "");
	/* the password parameters, the old iscsi_* forms, any *.password, case aside */
	assert_redact(CMD,
		      "rd.iscsi.username=u rd.iscsi.password=S1 rd.iscsi.in.username=v "
		      "rd.iscsi.in.password=S2 iscsi_password=S3 iscsi_in_password=S4",
		      "rd.iscsi.username=u rd.iscsi.password=REDACTED rd.iscsi.in.username=v "
		      "rd.iscsi.in.password=REDACTED iscsi_password=REDACTED "
		      "iscsi_in_password=REDACTED",
		      "redacted f:1: the value of rd.iscsi.password=\n"
		      "redacted f:1: the value of rd.iscsi.in.password=\n"
		      "redacted f:1: the value of iscsi_password=\n"
		      "redacted f:1: the value of iscsi_in_password=\n");
	assert_redact(CMD, "mod.password=S inst.vncpassword=S Foo.PassWD=S x.passphrase=S",
		      "mod.password=REDACTED inst.vncpassword=REDACTED Foo.PassWD=REDACTED "
		      "x.passphrase=REDACTED",
		      NULL);
	assert_redact(CMD, "rd.iscsi.password=\"a b\" quiet", "rd.iscsi.password=REDACTED quiet",
		      NULL);
	assert_redact(CMD, "rd.iscsi.password= quiet", "rd.iscsi.password= quiet", "");
	/* CIFS, and the password of any URL (root=live:, inst.ks=) */
	assert_redact(CMD, "root=cifs://u:S1@10.0.0.1:/srv cifsuser=u cifspass=S2",
		      "root=cifs://u:REDACTED@10.0.0.1:/srv cifsuser=u cifspass=REDACTED",
		      "redacted f:1: the password of a URL (root=)\n"
		      "redacted f:1: the value of cifspass=\n");
	assert_redact(CMD, "root=live:http://u:S/x@h/img inst.ks=https://u:S@h/ks x=ftp://u@h/",
		      "root=live:http://u:REDACTED@h/img inst.ks=https://u:REDACTED@h/ks "
		      "x=ftp://u@h/",
		      NULL);
	assert_redact(CMD, "http://u:S@h/a,ftp://v:T@k/b",
		      "http://u:REDACTED@h/a,ftp://v:REDACTED@k/b", NULL);
	/* systemd credentials (kernel-command-line(7)): the value after the id */
	assert_redact(CMD,
		      "systemd.set_credential=passwd.plaintext-password.root:S "
		      "systemd.set_credential_binary=k:QUJD",
		      "systemd.set_credential=passwd.plaintext-password.root:REDACTED "
		      "systemd.set_credential_binary=k:REDACTED",
		      NULL);
	/* inside a quoted shell value (GRUB_CMDLINE_LINUX) and a kernel line */
	assert_redact(GRUB, "GRUB_CMDLINE_LINUX=\"quiet rd.iscsi.password=S1 ro\"\n",
		      "GRUB_CMDLINE_LINUX=\"quiet rd.iscsi.password=REDACTED ro\"\n", NULL);
	assert_redact(GRUB, "\tlinux /vmlinuz netroot=iscsi:u:S@h::::iqn.x ro\n",
		      "\tlinux /vmlinuz netroot=iscsi:u:REDACTED@h::::iqn.x ro\n", NULL);
	/*
	 * Quotes as the kernel splits words (next_arg()): a '"' anywhere toggles quoting, a
	 * '\'' is a byte; inside a "..." string the string's own quote ends the value and \"
	 * are the kernel's. Every form once kept a part of the secret.
	 */
	assert_redact(GRUB, "GRUB_CMDLINE_LINUX=\"rd.iscsi.password=S1\"\n",
		      "GRUB_CMDLINE_LINUX=\"rd.iscsi.password=REDACTED\"\n", NULL);
	assert_redact(GRUB, "GRUB_CMDLINE_LINUX=\"a rd.iscsi.password=\\\"S1 S2\\\" b\"\n",
		      "GRUB_CMDLINE_LINUX=\"a rd.iscsi.password=REDACTED b\"\n", NULL);
	assert_redact(CMD, "\"rd.iscsi.password=A B\" quiet",
		      "\"rd.iscsi.password=REDACTED\" quiet", NULL);
	assert_redact(CMD, "rd.iscsi.in.password=ab'C3 quiet",
		      "rd.iscsi.in.password=REDACTED quiet", NULL);
	assert_redact(CMD, "rd.iscsi.password=ab\"C4 C5\" quiet",
		      "rd.iscsi.password=REDACTED quiet", NULL);
	assert_redact(CMD, "rd.iscsi.password=\"S x y\nnext=1\n",
		      "rd.iscsi.password=REDACTED\nnext=1\n", NULL);
	/*
	 * In a script's '...' string the closing quote ends the value and is kept (it was cut
	 * with the secret: the stored /etc/default/grub no longer parsed); a '"' in it is the
	 * kernel's; a string the value opens itself is cut whole.
	 */
	assert_redact(GRUB, "GRUB_CMDLINE_LINUX='quiet rd.iscsi.password=S1'\n",
		      "GRUB_CMDLINE_LINUX='quiet rd.iscsi.password=REDACTED'\n",
		      "redacted f:1: the value of rd.iscsi.password=\n");
	/* a script's unquoted VAR=param=value: the value is a parameter too */
	assert_redact(GRUB, "GRUB_CMDLINE_LINUX=rd.iscsi.password=S1\n",
		      "GRUB_CMDLINE_LINUX=rd.iscsi.password=REDACTED\n",
		      "redacted f:1: the value of rd.iscsi.password=\n");
	assert_redact(SHELL, "kernel_cmdline=x.password=S1\n", "kernel_cmdline=x.password=REDACTED\n",
		      NULL);
	assert_redact(GRUB, "X='a rd.iscsi.password=\"S1 S2\" b' # it's\n",
		      "X='a rd.iscsi.password=REDACTED b' # it's\n", NULL);
	assert_redact(GRUB, "X=\"a rd.iscsi.password=S1\" Y='x.password=S2'\n",
		      "X=\"a rd.iscsi.password=REDACTED\" Y='x.password=REDACTED'\n", NULL);
	assert_redact(GRUB, "options rd.iscsi.password='S1 S2' x.password=\"S3 S4\" quiet\n",
		      "options rd.iscsi.password=REDACTED x.password=REDACTED quiet\n", NULL);
	assert_redact(GRUB, "# Don't set rd.iscsi.password=S1 here\n",
		      "# Don't set rd.iscsi.password=REDACTED here\n", NULL);
	/* dracut.conf: bash, kernel_cmdline= holds kernel parameters */
	assert_redact(SHELL, "kernel_cmdline='rd.iscsi.password=S1 ip=dhcp'\n",
		      "kernel_cmdline='rd.iscsi.password=REDACTED ip=dhcp'\n", NULL);
	assert_redact(SHELL, "kernel_cmdline=\"rd.iscsi.password=S1\"\n",
		      "kernel_cmdline=\"rd.iscsi.password=REDACTED\"\n", NULL);
	/* a key of any length: its last dotted part decides */
	assert_redact(
		CMD, "a_module_name_far_longer_than_the_sixty_four_bytes_of_a_key.password=S q",
		"a_module_name_far_longer_than_the_sixty_four_bytes_of_a_key.password=REDACTED "
		"q",
		NULL);
}

/* A NUL in an edited boot file starts a word, as white space does. */
static void test_redact_nul(void **state)
{
	static const char in[] = "quiet\0rd.iscsi.password=S\0x";
	static const char want[] = "quiet\0rd.iscsi.password=REDACTED";
	char *got = NULL;
	size_t size = 0;

	assert_int_equal(snapshot_redact(CMD, "f", in, sizeof(in) - 1, &got, &size, NULL), 1);
	/* the value runs on through the NUL: cut long rather than short */
	assert_int_equal(size, sizeof(want) - 1);
	assert_memory_equal(got, want, size);
	free(got);
}

/* A command line without a credential comes out byte for byte. */
static void test_redact_cmdline_keeps(void **state)
{
	static const char line[] =
		"BOOT_IMAGE=/vmlinuz-6.1.0 root=/dev/mapper/vg-root ro quiet iommu.passthrough=1 "
		"intel_iommu=on ip=10.0.0.2::10.0.0.1:255.255.255.0:host:eth0:none "
		"root=nfs:10.0.0.1:/srv/root:vers=4 nfsroot=10.0.0.1:/x secretmem.enable=1 "
		"pci=disable_acs_redir=pci:10b5:c010 rd.iscsi.username=u bypass=1 "
		"erdma.compat_mode=Y \"dyndbg=file x +p\" -- single\n";

	assert_redact(CMD, line, line, "");
}

static void test_secret_key(void **state)
{
	static const char *const yes[] = {
		"rd.iscsi.password",  "rd.iscsi.in.password", "iscsi_password", "iscsi_in_password",
		"cifspass",	      "inst.vncpassword",     "mod.PASSWD",	"GRUB2_PASSWORD",
		"GRUB_PASSWORD_HASH", "x.passphrase",	      "password",	"a-password-b",
	};
	static const char *const no[] = {
		"passwordless_menu",
		"rd.iscsi.username",
		"cifsuser",
		"iommu.passthrough",
		"bypass",
		"secretmem.enable",
		"password.x",
		"superusers",
	};

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!snapshot_secret_key(yes[i]))
			fail_msg("%s is not a secret", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (snapshot_secret_key(no[i]))
			fail_msg("%s is a secret", no[i]);
}

static void test_redactors(void **state)
{
	assert_int_equal(snapshot_redactors("proc/cmdline"), CMD);
	assert_int_equal(snapshot_redactors("boot/grub/grub.cfg"), GRUB);
	assert_int_equal(snapshot_redactors("boot/grub2/user.cfg"), GRUB);
	assert_int_equal(snapshot_redactors("boot/loader/entries/a.conf"), GRUB);
	assert_int_equal(snapshot_redactors("etc/default/grub"), GRUB);
	assert_int_equal(snapshot_redactors("etc/default/grub.d/50-x.cfg"), GRUB);
	assert_int_equal(snapshot_redactors("etc/grub.d/40_custom"), GRUB);
	assert_int_equal(snapshot_redactors("etc/modprobe.d/x.conf"), CMD);
	assert_int_equal(snapshot_redactors("usr/lib/modprobe.d/x.conf"), CMD);
	assert_int_equal(snapshot_redactors("etc/dracut.conf"), SHELL);
	assert_int_equal(snapshot_redactors("etc/dracut.conf.d/10-net.conf"), SHELL);
	assert_int_equal(snapshot_redactors("usr/lib/dracut/dracut.conf.d/01-x.conf"), SHELL);
	assert_int_equal(snapshot_redactors("run/hostprep/report.json"), CMD);
	assert_int_equal(snapshot_redactors("sys/bus/pci/devices/x/config"), 0);
	assert_int_equal(snapshot_redactors("etc/hostprep/hostprep.conf"), 0);
	assert_int_equal(snapshot_redactors("efi/loader/entries/a.conf"), GRUB);
	assert_int_equal(snapshot_redactors("sys/module/erdma/parameters/password"),
			 SNAPSHOT_REDACT_VALUE);
	assert_int_equal(snapshot_redactors("sys/module/erdma/parameters/passwordless"), 0);
	assert_int_equal(snapshot_redactors("sys/module/erdma/parameters/compat_mode"), 0);
	assert_int_equal(snapshot_redactors("sys/module/erdma/holders/password"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),      cmocka_unit_test(test_link_target),
		cmocka_unit_test(test_refused),	       cmocka_unit_test(test_strset),
		cmocka_unit_test(test_fnmatch),	       cmocka_unit_test(test_utf8_escape),
		cmocka_unit_test(test_redact_grub),    cmocka_unit_test(test_redact_grub_keeps),
		cmocka_unit_test(test_redact_cmdline), cmocka_unit_test(test_redact_cmdline_keeps),
		cmocka_unit_test(test_redact_nul),     cmocka_unit_test(test_secret_key),
		cmocka_unit_test(test_redactors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
