// Heap bytes OpenSSL keeps per server-side TLS connection after a TLS 1.3 handshake through
// memory BIOs, with the settings roster-server uses. Build and run (certificate from a data dir):
//   gcc -O2 ssl_memory.c -o ssl_memory -lssl -lcrypto
//   ./ssl_memory keep DATA_DIR/tls/server.pem DATA_DIR/tls/server.key
//   ./ssl_memory swap DATA_DIR/tls/server.pem DATA_DIR/tls/server.key   # with the BIO swap
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void pump(BIO *from, BIO *to) { char buf[65536]; int n; while ((n = BIO_read(from, buf, sizeof buf)) > 0) BIO_write(to, buf, n); }
int main(int argc, char **argv) {
  int N = 2000; int swap = argc > 1 && strcmp(argv[1], "swap") == 0;
  SSL_CTX *s = SSL_CTX_new(TLS_server_method()), *c = SSL_CTX_new(TLS_client_method());
  SSL_CTX_use_certificate_chain_file(s, argc > 2 ? argv[2] : "server.pem"); SSL_CTX_use_PrivateKey_file(s, argc > 3 ? argv[3] : "server.key", SSL_FILETYPE_PEM);
  SSL_CTX_set_mode(s, SSL_MODE_RELEASE_BUFFERS); SSL_CTX_set_session_cache_mode(s, SSL_SESS_CACHE_OFF); SSL_CTX_set_num_tickets(s, 0);
  SSL_CTX_set_min_proto_version(s, TLS1_2_VERSION);
  SSL **servers = calloc(N, sizeof(SSL*));
  struct mallinfo2 before = mallinfo2();
  size_t sslOnly = 0;
  for (int i = 0; i < N; i++) {
    SSL *sv = SSL_new(s), *cl = SSL_new(c);
    BIO *sr = BIO_new(BIO_s_mem()), *sw = BIO_new(BIO_s_mem()), *cr = BIO_new(BIO_s_mem()), *cw = BIO_new(BIO_s_mem());
    BIO_set_mem_eof_return(sr, -1); BIO_set_mem_eof_return(sw, -1); BIO_set_mem_eof_return(cr, -1); BIO_set_mem_eof_return(cw, -1);
    SSL_set_bio(sv, sr, sw); SSL_set_bio(cl, cr, cw); SSL_set_accept_state(sv); SSL_set_connect_state(cl);
    for (int r = 0; r < 10; r++) { SSL_do_handshake(cl); pump(cw, sr); SSL_do_handshake(sv); pump(sw, cr); }
    char msg[266]; memset(msg, 'x', sizeof msg); SSL_write(sv, msg, sizeof msg); pump(sw, cr); char in[1000]; SSL_read(cl, in, sizeof in);
    SSL_write(cl, msg, 20); pump(cw, sr); SSL_read(sv, in, sizeof in);
    if (swap) { BIO *nr = BIO_new(BIO_s_mem()), *nw = BIO_new(BIO_s_mem()); BIO_set_mem_eof_return(nr, -1); BIO_set_mem_eof_return(nw, -1); SSL_set_bio(sv, nr, nw); }
    SSL_free(cl); servers[i] = sv;
  }
  struct mallinfo2 after = mallinfo2();
  printf("%s: %.0f bytes per server SSL (incl. BIOs)\n", swap ? "swap" : "keep", (double)(after.uordblks - before.uordblks) / N);
  printf("version %s\n", SSL_get_version(servers[0]));
  return 0;
}
