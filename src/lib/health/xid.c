/* xid.c: what the common NVIDIA XID codes mean and what the field does
 * about them. Meanings and actions summarise NVIDIA's Xid catalog
 * (docs.nvidia.com/deploy/xid-errors, "Analyzing Xid Errors with the Xid
 * Catalog", resolution buckets RESTART_APP / RESET_GPU / CONTACT_SUPPORT)
 * and the dynamic page retirement guide (docs.nvidia.com/deploy/
 * dynamic-page-retirement). Application-side faults warn; faults that need
 * a GPU reset or point at hardware fail. */
#include <stddef.h>

#include "health-int.h"

static const char app_fault[] =
    "usually a fault of the application (bad address, illegal "
    "instruction): restart it and check its code or framework; if the GPU "
    "keeps reporting it with different applications, reset the GPU and "
    "run the GPU diagnostics";

static const struct hxid xids[] = {
    {8, "GPU stopped processing (channel timeout)", SN_HEALTH_WARN,
     "restart the application; contact support if it recurs"},
    {13, "graphics engine exception", SN_HEALTH_WARN, app_fault},
    {31, "GPU memory page fault", SN_HEALTH_WARN, app_fault},
    {32, "invalid or corrupted push buffer stream (DMA over PCIe)",
     SN_HEALTH_WARN,
     "often PCIe signal quality: check this GPU's pcie.link and pcie.aer "
     "checks, reseat if they show errors"},
    {43, "GPU stopped processing after an application fault", SN_HEALTH_WARN,
     app_fault},
    {45, "preemptive cleanup: a process was killed or the GPU reset",
     SN_HEALTH_PASS, ""},
    {48, "double-bit (uncorrectable) ECC error", SN_HEALTH_FAIL,
     "drain the GPU and reset it (nvidia-smi -r) or reboot; return it to "
     "the vendor if it recurs"},
    {61, "internal micro-controller warning", SN_HEALTH_WARN,
     "reset the GPU if it recurs; update the driver"},
    {62, "internal micro-controller halt", SN_HEALTH_FAIL,
     "drain and reset the GPU; update the driver; contact support if it "
     "recurs"},
    {63, "ECC page retirement or row remapping recorded (reset to apply)",
     SN_HEALTH_WARN,
     "drain the GPU and reset it so the retirement or remap takes effect"},
    {64, "ECC page retirement or row remapping failed", SN_HEALTH_FAIL,
     "drain the GPU; the memory cannot be repaired in place: return it to "
     "the vendor"},
    {74, "NVLink error", SN_HEALTH_FAIL,
     "drain and reset the GPU; check the nvml.nvlink counters of this GPU "
     "and its peers (the fault may be at the far end), reseat the NVLink "
     "bridge or tray, check the fabric manager"},
    {79, "GPU has fallen off the bus", SN_HEALTH_FAIL,
     "the GPU stopped answering on PCIe: check power, seating and "
     "temperature, reboot the node, return the GPU if it recurs"},
    {92, "high single-bit ECC error rate", SN_HEALTH_WARN,
     "trend the corrected ECC count; drain and reset if it keeps rising"},
    {94, "contained uncorrectable ECC error", SN_HEALTH_FAIL,
     "the faulting application was stopped; drain the GPU and reset it to "
     "remap the row; return it if it recurs"},
    {95, "uncontained uncorrectable ECC error", SN_HEALTH_FAIL,
     "every application on the GPU is affected: reset the GPU now; return "
     "it if it recurs"},
    {109, "context switch timeout", SN_HEALTH_WARN, app_fault},
    {119, "GSP firmware RPC timeout", SN_HEALTH_FAIL,
     "reset the GPU or reload the driver; update the driver if it recurs"},
    {120, "GSP firmware error", SN_HEALTH_FAIL,
     "reset the GPU or reload the driver; update the driver if it recurs"},
    {140, "unrecovered ECC error", SN_HEALTH_FAIL,
     "drain and reset the GPU; return it if it recurs"},
    {154, "GPU recovery action changed (reset or reboot required)",
     SN_HEALTH_FAIL,
     "read the recovery action in `nvidia-smi -q` and do it: reset the GPU "
     "or reboot the node"},
};

static const struct hxid unknown = {
    0, "uncommon XID", SN_HEALTH_WARN,
    "look the code up in NVIDIA's Xid catalog (docs.nvidia.com/deploy/"
    "xid-errors)"};

const struct hxid *sn__health_xid(unsigned code)
{
    for (size_t i = 0; i < SN_ARRAY_LEN(xids); i++)
        if (xids[i].code == code)
            return &xids[i];
    return &unknown;
}
