# The module list cannot be read: /sys/module still answers for what it shows; a module
# neither shows is unknown with the reason; the run goes on and the host is not ready.
newroot erdma-std
useconf kmod-erdma
rm "$R/proc/modules"
hp -v check
expect_grep out '^PASS +module\.state +erdma +live or builtin +live \(refcnt 0\)$'
rm -r "$R/sys/module/erdma"
hp -v check
expect_rc 1
expect_grep out '^UNKNOWN +module\.state +erdma +live or builtin +cannot read the module list: No such file or directory$'
expect_grep out '^SKIP +iommu\.mode +host +any +not declared'
expect_grep out '^PASS +module\.state +pciehp +live or builtin +builtin$'
# GPUDirect dmabuf without NVIDIA's open module
newroot ofed-gpu
useconf kmod-ofed
sed -i 's/^Expect=either/Expect=dmabuf/' "$R/etc/hostprep/hostprep.conf"
hp -v check
expect_grep out '^FAIL +gpudirect +host +dmabuf +.*NVIDIA proprietary kernel module$'
