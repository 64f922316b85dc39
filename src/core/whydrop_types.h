/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The BPF-shared header needs the kernel's fixed-width types in user space. */
#ifndef WD_WHYDROP_TYPES_H
#define WD_WHYDROP_TYPES_H

#include <linux/types.h>
#include "whydrop.h"

#endif
