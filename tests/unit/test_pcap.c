/* The pcap writer behind skboutput(): the file header libpcap writes for
 * pcap_open_dead(DLT_RAW, 65535), then per packet its record header and
 * bytes, byte for byte. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "runtime/pcap_writer.h"

static size_t read_all(const char *path, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static uint32_t u32_at(const uint8_t *b, size_t off)
{
	uint32_t v;
	memcpy(&v, b + off, 4);
	return v;
}

static void test_header_and_records(void)
{
	char path[] = "/tmp/sonde_pcap_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	PcapWriter w;
	CHECK(pcap_open(&w, path));
	static const uint8_t p1[] = {0x45, 0, 0, 0x1c, 1, 2, 3};
	/* 1.5 s and 999 ns after the epoch: microseconds truncate */
	CHECK(pcap_write(&w, 1500000999ull, p1, sizeof(p1)));
	CHECK(pcap_write(&w, 1700000000123456789ull, p1 + 2, 0));
	CHECK(pcap_close(&w));
	uint8_t b[256];
	size_t n = read_all(path, b, sizeof(b));
	CHECK(n == 24 + 16 + sizeof(p1) + 16);
	/* magic, version 2.4, thiszone 0, sigfigs 0, snaplen, LINKTYPE_RAW */
	static const uint8_t hdr[24] = {0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0,
					0xff, 0xff, 0, 0, 101, 0, 0, 0};
	CHECK(!memcmp(b, hdr, sizeof(hdr)));
	CHECK(u32_at(b, 24) == 1 && u32_at(b, 28) == 500000);
	CHECK(u32_at(b, 32) == sizeof(p1) && u32_at(b, 36) == sizeof(p1));
	CHECK(!memcmp(b + 40, p1, sizeof(p1)));
	size_t r2 = 40 + sizeof(p1);
	CHECK(u32_at(b, r2) == 1700000000u && u32_at(b, r2 + 4) == 123456);
	CHECK(u32_at(b, r2 + 8) == 0 && u32_at(b, r2 + 12) == 0);
	unlink(path);
}

/* more than the snapshot length: caplen stops there, len keeps the size */
static void test_snaplen(void)
{
	char path[] = "/tmp/sonde_pcap_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	PcapWriter w;
	CHECK(pcap_open(&w, path));
	uint8_t *big = calloc(1, 70000);
	CHECK(pcap_write(&w, 0, big, 70000));
	CHECK(pcap_close(&w));
	uint8_t b[64];
	CHECK(read_all(path, b, sizeof(b)) == sizeof(b));
	CHECK(u32_at(b, 32) == 65535 && u32_at(b, 36) == 70000);
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	CHECK(ftell(f) == 24 + 16 + 65535);
	fclose(f);
	free(big);
	unlink(path);
}

static void test_open_error(void)
{
	PcapWriter w;
	CHECK(!pcap_open(&w, "/nonexistent-dir/x.pcap"));
	CHECK(w.f == NULL);
}

int main(void)
{
	test_header_and_records();
	test_snaplen();
	test_open_error();
	return check_done("test_pcap");
}
