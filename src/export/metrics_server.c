/* The --metrics HTTP server.  It runs inside sonde's event loop (a
 * RunService): the listening socket and its connections sit in an epoll set
 * of their own, which the loop watches with the event ring; every socket is
 * non-blocking, so a slow or silent client never holds the loop, and a
 * scrape reads the maps with the BPF syscalls (no script code runs) between
 * two reads of the ring.  One request per connection ("Connection: close").
 * Chosen over a thread: printing a key resolves symbols through caches the
 * event loop also fills, and a scrape of a 10k-key map costs milliseconds. */
#include <errno.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "metrics.h"

#define MAX_CONNS 16          /* more: the oldest is closed */
#define MAX_REQUEST (16 << 10) /* request line and headers */

typedef struct Conn {
	int fd;       /* -1: free */
	uint64_t seq; /* accept order: the oldest goes first */
	StrBuf in, out;
	size_t sent;
} Conn;

struct MetricsServer {
	char *spec; /* as given, for messages */
	struct sockaddr_storage addr;
	socklen_t alen;
	bool quiet;
	int lfd, epfd;
	Conn conns[MAX_CONNS];
	uint64_t seq;
	Runtime *rt;
	bool *served; /* per map: it has a metric form and a name of its own */
	RunService svc;
};

/* ---- ADDR:PORT ---- */

static bool parse_port(const char *s, char *err, size_t errlen, const char *spec)
{
	char *end;
	long p = strtol(s, &end, 10);
	if (!*s || *end || p < 0 || p > 65535) {
		snprintf(err, errlen, "--metrics '%s': the port must be a number from 0 to 65535 "
			 "(ADDR:PORT, e.g. 127.0.0.1:9100)", spec);
		return false;
	}
	return true;
}

/* a numeric address needs no resolver (the static build has none) */
static bool numeric(MetricsServer *s, const char *host, int port)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)&s->addr;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&s->addr;
	if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		s->alen = sizeof(*a4);
		return true;
	}
	if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		s->alen = sizeof(*a6);
		return true;
	}
	return false;
}

static bool resolve(MetricsServer *s, const char *host, const char *port, char *err, size_t errlen)
{
	if (numeric(s, host, atoi(port)))
		return true;
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV}, *res;
	int r = getaddrinfo(host, port, &hints, &res);
	if (r) {
		snprintf(err, errlen, "--metrics '%s': bad address '%s': %s (ADDR:PORT, e.g. "
			 "127.0.0.1:9100; 0.0.0.0:PORT listens on every interface)", s->spec, host,
			 gai_strerror(r));
		return false;
	}
	memcpy(&s->addr, res->ai_addr, res->ai_addrlen);
	s->alen = res->ai_addrlen;
	freeaddrinfo(res);
	return true;
}

/* "PORT", ":PORT": loopback; "[V6]:PORT"; "HOST:PORT" */
static bool parse_spec(MetricsServer *s, char *err, size_t errlen)
{
	char *copy = xstrdup(s->spec), *colon = strrchr(copy, ':'), *host = copy;
	const char *port = colon ? colon + 1 : copy;
	bool ok = false;
	if (colon)
		*colon = 0;
	if (!colon || !*host)
		host = "127.0.0.1";
	else if (*host == '[') { /* [::1] */
		size_t n = strlen(host);
		if (host[n - 1] != ']') {
			snprintf(err, errlen, "--metrics '%s': an IPv6 address goes in brackets: [::1]:9100",
				 s->spec);
			goto out;
		}
		host[n - 1] = 0;
		host++;
	}
	ok = parse_port(port, err, errlen, s->spec) && resolve(s, host, port, err, errlen);
out:
	free(copy);
	return ok;
}

MetricsServer *metrics_server_new(const char *spec, bool quiet, char *err, size_t errlen)
{
	MetricsServer *s = xcalloc(1, sizeof(*s));
	s->spec = xstrdup(spec);
	s->quiet = quiet;
	s->lfd = s->epfd = -1;
	for (int i = 0; i < MAX_CONNS; i++)
		s->conns[i].fd = -1;
	if (!parse_spec(s, err, errlen)) {
		metrics_server_free(s);
		return NULL;
	}
	return s;
}

/* ---- the scrape ---- */

static uint64_t drops(const Runtime *rt)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t sum = 0, *v = xcalloc((size_t)(ncpu > 0 ? ncpu : 1), sizeof(uint64_t));
	for (uint32_t key = D_DROP_AGG; rt->drops_fd >= 0 && key <= D_DROP_DYNVAR; key++)
		if (bpf_map_lookup_elem(rt->drops_fd, &key, v) == 0)
			for (int c = 0; c < ncpu; c++)
				sum += v[c];
	free(v);
	return sum;
}

static void scrape(MetricsServer *s, StrBuf *body, bool om)
{
	Runtime *rt = s->rt;
	for (int i = 0; i < rt->sc->maps.n; i++) {
		if (!s->served[i])
			continue;
		MapEntry *e;
		void *mem;
		int n = map_read_batched(&rt->maps[i], &e, &mem);
		if (n >= 0)
			metrics_map_write(body, &rt->out, &rt->maps[i], e, n, om);
		free(e);
		free(mem);
	}
	MetricsHealth h = {runtime_lost_events(rt), drops(rt), (uint64_t)rt->sc->nattach};
	metrics_health_write(body, &h, om);
	if (om)
		sb_puts(body, "# EOF\n");
}

/* ---- HTTP ---- */

static void conn_close(MetricsServer *s, Conn *c)
{
	if (c->fd < 0)
		return;
	epoll_ctl(s->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	sb_free(&c->in);
	sb_free(&c->out);
	c->sent = 0;
}

static void respond(Conn *c, const char *status, const char *type, const StrBuf *body, bool head)
{
	sb_printf(&c->out, "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		  "Connection: close\r\n\r\n", status, type, body->len);
	if (!head && body->len)
		sb_putn(&c->out, body->s, body->len);
}

/* whether the request's headers ask for OpenMetrics (Prometheus does) */
static bool wants_openmetrics(const char *req)
{
	for (const char *l = strchr(req, '\n'); l; l = strchr(l + 1, '\n'))
		if (!strncasecmp(l + 1, "accept:", 7)) {
			const char *end = strchr(l + 1, '\n');
			const char *om = strstr(l + 1, "application/openmetrics-text");
			return om && (!end || om < end);
		}
	return false;
}

static void handle_request(MetricsServer *s, Conn *c)
{
	char method[16] = "", path[256] = "";
	StrBuf body = {0};
	sscanf(c->in.s, "%15s %255s", method, path);
	bool head = !strcmp(method, "HEAD");
	char *q = strchr(path, '?');
	if (q)
		*q = 0;
	if (strcmp(method, "GET") && !head) {
		sb_puts(&body, "only GET and HEAD\n");
		respond(c, "405 Method Not Allowed", "text/plain", &body, head);
	} else if (!strcmp(path, "/metrics")) {
		bool om = wants_openmetrics(c->in.s);
		scrape(s, &body, om);
		respond(c, "200 OK", om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
					: "text/plain; version=0.0.4; charset=utf-8", &body, head);
	} else if (!strcmp(path, "/")) {
		sb_puts(&body, "sonde: the script's maps are at /metrics\n");
		respond(c, "200 OK", "text/plain", &body, head);
	} else {
		sb_puts(&body, "not found: the metrics are at /metrics\n");
		respond(c, "404 Not Found", "text/plain", &body, head);
	}
	sb_free(&body);
}

/* sends what the socket takes now; true when the connection is done */
static bool conn_send(MetricsServer *s, Conn *c)
{
	while (c->sent < c->out.len) {
		ssize_t n = send(c->fd, c->out.s + c->sent, c->out.len - c->sent,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			struct epoll_event ev = {.events = EPOLLOUT, .data.u32 = (uint32_t)(c - s->conns)};
			epoll_ctl(s->epfd, EPOLL_CTL_MOD, c->fd, &ev);
			return false;
		}
		if (n <= 0)
			return true; /* the client went away */
		c->sent += (size_t)n;
	}
	return true;
}

static void conn_readable(MetricsServer *s, Conn *c)
{
	char buf[4096];
	ssize_t n;
	while ((n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		sb_putn(&c->in, buf, (size_t)n);
		if (c->in.len > MAX_REQUEST)
			break;
	}
	if (c->in.len > MAX_REQUEST) {
		StrBuf body = {0};
		respond(c, "431 Request Header Fields Too Large", "text/plain", &body, false);
	} else if (c->in.s && (strstr(c->in.s, "\r\n\r\n") || strstr(c->in.s, "\n\n"))) {
		handle_request(s, c);
	} else if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
		conn_close(s, c); /* closed before a whole request */
		return;
	} else {
		return; /* more of the request to come */
	}
	if (conn_send(s, c))
		conn_close(s, c);
}

static Conn *free_slot(MetricsServer *s)
{
	Conn *oldest = &s->conns[0];
	for (int i = 0; i < MAX_CONNS; i++) {
		if (s->conns[i].fd < 0)
			return &s->conns[i];
		if (s->conns[i].seq < oldest->seq)
			oldest = &s->conns[i];
	}
	conn_close(s, oldest); /* a client that never sent its request */
	return oldest;
}

static void accept_all(MetricsServer *s)
{
	int fd;
	while ((fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		Conn *c = free_slot(s);
		*c = (Conn){.fd = fd, .seq = ++s->seq};
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)(c - s->conns)};
		if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
			conn_close(s, c);
	}
}

#define LISTEN_TAG 0xffffffffu

static void srv_ready(void *self)
{
	MetricsServer *s = self;
	struct epoll_event evs[MAX_CONNS + 1];
	int n = epoll_wait(s->epfd, evs, MAX_CONNS + 1, 0);
	for (int i = 0; i < n; i++) {
		uint32_t tag = evs[i].data.u32;
		if (tag == LISTEN_TAG) {
			accept_all(s);
			continue;
		}
		Conn *c = &s->conns[tag];
		if (c->fd < 0)
			continue;
		if (c->out.len) { /* writable again */
			if (conn_send(s, c))
				conn_close(s, c);
		} else {
			conn_readable(s, c);
		}
	}
}

static int srv_fd(void *self)
{
	return ((MetricsServer *)self)->epfd;
}

/* ---- start and stop ---- */

static void tell_address(const MetricsServer *s)
{
	struct sockaddr_storage a;
	socklen_t len = sizeof(a);
	char host[INET6_ADDRSTRLEN] = "?";
	int port = 0;
	if (getsockname(s->lfd, (struct sockaddr *)&a, &len) < 0)
		return;
	if (a.ss_family == AF_INET6) {
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&a;
		inet_ntop(AF_INET6, &a6->sin6_addr, host, sizeof(host));
		port = ntohs(a6->sin6_port);
		fprintf(stderr, "Serving metrics at http://[%s]:%d/metrics\n", host, port);
	} else {
		struct sockaddr_in *a4 = (struct sockaddr_in *)&a;
		inet_ntop(AF_INET, &a4->sin_addr, host, sizeof(host));
		port = ntohs(a4->sin_port);
		fprintf(stderr, "Serving metrics at http://%s:%d/metrics\n", host, port);
	}
}

/* Which maps are served: a metric form, and names no other map (or
 * sonde's own health) takes; a message for each that is not */
static void choose_maps(MetricsServer *s)
{
	Runtime *rt = s->rt;
	int n = rt->sc->maps.n;
	s->served = xcalloc((size_t)n + 1, sizeof(bool));
	VEC(char *) taken = {0};
	static const char *const health[] = {"sonde_lost_events", "sonde_lost_events_total",
		"sonde_failed_map_updates", "sonde_failed_map_updates_total", "sonde_attached_probes"};
	for (size_t i = 0; i < sizeof(health) / sizeof(health[0]); i++)
		vec_push(&taken, xstrdup(health[i]));
	for (int i = 0; i < n; i++) {
		const MapDesc *m = &rt->maps[i];
		const char *why;
		if (metrics_form(m, &why) == MF_NONE) {
			fprintf(stderr, "sonde: --metrics: %s is not served: %s (no metric form)\n", m->name,
				why);
			continue;
		}
		char **names = metrics_sample_names(m);
		const char *clash = NULL;
		for (int j = 0; names[j] && !clash; j++)
			for (int t = 0; t < taken.n && !clash; t++)
				if (!strcmp(names[j], taken.v[t]))
					clash = taken.v[t];
		if (clash)
			fprintf(stderr, "sonde: --metrics: %s is not served: its metric name %s is taken "
				"(rename the map)\n", m->name, clash);
		for (int j = 0; names[j] && !clash; j++)
			vec_push(&taken, xstrdup(names[j]));
		s->served[i] = !clash;
		metrics_names_free(names);
	}
	for (int t = 0; t < taken.n; t++)
		free(taken.v[t]);
	vec_free(&taken);
}

static bool listen_fail(MetricsServer *s, const char *what, char *err, size_t errlen)
{
	int e = errno;
	snprintf(err, errlen, "--metrics %s: %s: %s%s", s->spec, what, strerror(e),
		 e == EADDRINUSE ? " (another program listens there: pick another port)"
		 : e == EADDRNOTAVAIL ? " (not an address of this machine)"
		 : e == EACCES ? " (ports below 1024 need privileges)" : "");
	if (s->lfd >= 0)
		close(s->lfd);
	s->lfd = -1;
	return false;
}

static bool srv_start(void *self, Runtime *rt, char *err, size_t errlen)
{
	MetricsServer *s = self;
	int one = 1;
	s->rt = rt;
	s->lfd = socket(s->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->lfd < 0)
		return listen_fail(s, "socket", err, errlen);
	setsockopt(s->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)); /* restart after TIME_WAIT */
	if (bind(s->lfd, (struct sockaddr *)&s->addr, s->alen) < 0)
		return listen_fail(s, "cannot listen", err, errlen);
	if (listen(s->lfd, 64) < 0)
		return listen_fail(s, "listen", err, errlen);
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = LISTEN_TAG};
	if (s->epfd < 0 || epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->lfd, &ev) < 0)
		return listen_fail(s, "epoll", err, errlen);
	choose_maps(s);
	if (!s->quiet)
		tell_address(s);
	return true;
}

static void srv_stop(void *self)
{
	MetricsServer *s = self;
	for (int i = 0; i < MAX_CONNS; i++)
		conn_close(s, &s->conns[i]);
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->epfd >= 0)
		close(s->epfd);
	s->lfd = s->epfd = -1;
	free(s->served);
	s->served = NULL;
}

const RunService *metrics_server_service(MetricsServer *s)
{
	s->svc = (RunService){.self = s, .start = srv_start, .fd = srv_fd, .ready = srv_ready,
			      .stop = srv_stop};
	return &s->svc;
}

void metrics_server_free(MetricsServer *s)
{
	if (!s)
		return;
	srv_stop(s);
	free(s->spec);
	free(s);
}
