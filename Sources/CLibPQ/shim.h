// PostgreSQL's client library (Debian: libpq-dev). Its TLS, when a store asks for it, is the
// system OpenSSL's, as is ours.
#ifndef ROSTER_CLIBPQ_SHIM_H
#define ROSTER_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
