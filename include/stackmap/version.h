/* SPDX-License-Identifier: GPL-2.0 */
/* The stackmap release, shared by the module, the plugin, fgdecode and DKMS. */
#ifndef STACKMAP_VERSION_H
#define STACKMAP_VERSION_H

#define STACKMAP_VERSION	"0.3.0"

#endif /* STACKMAP_VERSION_H */
