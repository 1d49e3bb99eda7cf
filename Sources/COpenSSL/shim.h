// The parts of OpenSSL that Swift cannot import directly: function-like macros become small
// static inline functions. Everything else is used straight from the OpenSSL headers.
#ifndef ROSTER_COPENSSL_SHIM_H
#define ROSTER_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>

// EVP_PKEY_fromdata's selection for a public key is a macro of macros.
static inline int roster_EVP_PKEY_PUBLIC_KEY(void) {
    return EVP_PKEY_PUBLIC_KEY;
}

static inline long roster_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}

// SSL_OP_* are built by a function-like macro: no renegotiation, our cipher order.
static inline void roster_SSL_CTX_set_hardened_options(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
}

// Long-lived connections gain nothing from resumption; without a session cache and tickets a
// server keeps no SSL_SESSION per connection beyond the live one.
static inline void roster_SSL_CTX_disable_resumption(SSL_CTX *ctx) {
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_num_tickets(ctx, 0);
}

static inline long roster_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline long roster_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline long roster_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

static inline long roster_BIO_set_mem_eof_return(BIO *bio, int value) {
    return BIO_set_mem_eof_return(bio, value);
}

static inline size_t roster_BIO_ctrl_pending(BIO *bio) {
    return BIO_ctrl_pending(bio);
}

static inline EVP_PKEY *roster_EVP_EC_gen_p256(void) {
    return EVP_EC_gen("P-256");
}

static inline int roster_SSL_CTX_add_extra_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return (int)SSL_CTX_add_extra_chain_cert(ctx, cert);
}

static inline void roster_OPENSSL_free(void *pointer) {
    OPENSSL_free(pointer);
}

static inline STACK_OF(X509) *roster_SSL_get_peer_cert_chain(const SSL *ssl) {
    return SSL_get_peer_cert_chain(ssl);
}

static inline int roster_sk_X509_num(const STACK_OF(X509) *stack) {
    return sk_X509_num(stack);
}

static inline X509 *roster_sk_X509_value(const STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}

#endif
