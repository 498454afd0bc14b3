// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Xid codes hostprep knows, each with its meaning and what to do, from NVIDIA's Xid
 * catalogue for Ampere and later GPUs: "Analyzing Xid Errors with the Xid Catalog",
 * https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html (its "Resolution
 * Bucket (Immediate Action)" column: IGNORE, RESTART_APP, RESET_GPU, RESTART_BM,
 * CONTACT_SUPPORT), with the meanings of https://docs.nvidia.com/deploy/xid-errors/ and
 * the driver's own names (src/common/sdk/nvidia/inc/nverror.h, NVIDIA/open-gpu-kernel-
 * modules). RESTART_BM (reboot the bare-metal node) is reboot here, CONTACT_SUPPORT is
 * hardware (field service). A code not here is judged "not in hostprep's table".
 *
 * SXid (NVSwitch) lines state their own severity ("Fatal" or "Non-fatal", NVIDIA's Fabric
 * Manager User Guide, "NVSwitch SXid errors"): kmsg_match() takes it from the line.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "xid/xid.h"

static const struct xid_code xid_codes[] = {
	{ 8, "GPU stopped processing (channel idle timeout)", XID_CLASS_RESTART_APP },
	{ 13, "Graphics Engine Exception", XID_CLASS_RESTART_APP },
	{ 31, "GPU memory page fault", XID_CLASS_RESTART_APP },
	{ 32, "Invalid or corrupted push buffer stream", XID_CLASS_RESTART_APP },
	{ 43, "GPU stopped processing (the application's channel was reset)", XID_CLASS_NONE },
	{ 45, "Preemptive cleanup, due to previous errors", XID_CLASS_NONE },
	{ 48, "Double Bit ECC Error", XID_CLASS_RESET_GPU },
	{ 61, "Internal micro-controller breakpoint/warning", XID_CLASS_RESET_GPU },
	{ 62, "Internal micro-controller halt", XID_CLASS_RESET_GPU },
	{ 63, "ECC page retirement or row remapping recording event", XID_CLASS_RESET_GPU },
	{ 64, "ECC page retirement or row remapper recording failure", XID_CLASS_SERVICE },
	{ 68, "NVDEC0 Exception (video processor)", XID_CLASS_RESTART_APP },
	{ 69, "Graphics Engine class error", XID_CLASS_RESTART_APP },
	{ 74, "NVLink Error", XID_CLASS_RESET_GPU },
	{ 79, "GPU has fallen off the bus", XID_CLASS_REBOOT },
	{ 92, "High single-bit ECC error rate", XID_CLASS_NONE },
	{ 94, "Contained ECC error", XID_CLASS_RESTART_APP },
	{ 95, "Uncontained ECC error", XID_CLASS_RESET_GPU },
	{ 119, "GSP RPC Timeout", XID_CLASS_RESET_GPU },
	{ 120, "GSP Error", XID_CLASS_RESET_GPU },
	{ 121, "C2C Link corrected error", XID_CLASS_NONE },
	{ 140, "Unrecovered ECC Error", XID_CLASS_RESET_GPU },
	{ 143, "GPU Initialization Failure", XID_CLASS_RESET_GPU },
	/* the class is the action named in the line (xid_154_class()) */
	{ 154, "GPU Recovery Action Changed", XID_CLASS_UNKNOWN },
};

const struct xid_code *xid_lookup(bool sxid, unsigned code)
{
	if (sxid)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(xid_codes); i++)
		if (xid_codes[i].code == code)
			return &xid_codes[i];
	return NULL;
}

static const enum action class_actions[_XID_CLASS_MAX] = {
	[XID_CLASS_NONE] = ACTION_NONE,		  [XID_CLASS_RESTART_APP] = ACTION_RESTART_APP,
	[XID_CLASS_RESET_GPU] = ACTION_RESET_GPU, [XID_CLASS_REBOOT] = ACTION_REBOOT,
	[XID_CLASS_SERVICE] = ACTION_HARDWARE,	  [XID_CLASS_UNKNOWN] = ACTION_INSPECT,
};

enum action xid_class_action(enum xid_class c)
{
	return c < _XID_CLASS_MAX ? class_actions[c] : ACTION_INSPECT;
}

/*
 * An application's fault leaves the host ready (warn: it ran, it failed); what needs the
 * GPU reset, the node rebooted or serviced is not ready; a code hostprep cannot place is a
 * warning for a person to look at, not a pass.
 */
static const enum verdict class_verdicts[_XID_CLASS_MAX] = {
	[XID_CLASS_NONE] = VERDICT_PASS,      [XID_CLASS_RESTART_APP] = VERDICT_WARN,
	[XID_CLASS_RESET_GPU] = VERDICT_FAIL, [XID_CLASS_REBOOT] = VERDICT_FAIL,
	[XID_CLASS_SERVICE] = VERDICT_FAIL,   [XID_CLASS_UNKNOWN] = VERDICT_WARN,
};

enum verdict xid_class_verdict(enum xid_class c)
{
	return c < _XID_CLASS_MAX ? class_verdicts[c] : VERDICT_WARN;
}

/*
 * NVML's nvmlDeviceGpuRecoveryAction_t, as the driver names the values in Xid 154's text
 * (NVIDIA, "A100 GPU memory error management", "Error Recovery and Response Flags"): the
 * action after " to 0xN (".
 */
static const enum xid_class recovery_actions[] = {
	[0] = XID_CLASS_NONE,	   /* None */
	[1] = XID_CLASS_RESET_GPU, /* GPU Reset Required */
	[2] = XID_CLASS_REBOOT,	   /* Node Reboot Required */
	[3] = XID_CLASS_RESET_GPU, /* Drain P2P: stop peer traffic, then reset */
	[4] = XID_CLASS_RESET_GPU, /* Drain and Reset */
};

enum xid_class xid_154_class(const char *msg)
{
	const char *p = strstr(msg, " to 0x");
	char *end;
	unsigned long v;

	if (!p)
		return XID_CLASS_UNKNOWN;
	p += strlen(" to 0x");
	if (!isxdigit((unsigned char)*p))
		return XID_CLASS_UNKNOWN;
	v = strtoul(p, &end, 16);
	if (end == p || v >= ARRAY_SIZE(recovery_actions))
		return XID_CLASS_UNKNOWN;
	return recovery_actions[v];
}
