"""The copy between GPUs that ShardBench's "copy" row compares with: x.to('cuda:1') of 2^28 floats
(1 GiB) already on cuda:0, CUDA-event time from cuda:0's stream to both devices synchronized, the
median of 20 after a warm-up; then saxpy and a float16 product 8192^3 on one GPU, for the scale of
the figures beside it. With one GPU only the last two run, and it says so.
Usage: python3 bench/torch_copy.py [log2 elements]   (default 28)"""
import statistics
import sys
import time

import torch


def median_ms(call, runs=20, device="cuda:0"):
    warm_until = time.time() + 1.0
    while time.time() < warm_until:
        call()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record(torch.cuda.current_stream(device))
        call()
        end.record(torch.cuda.current_stream(device))
        for d in range(torch.cuda.device_count()):
            torch.cuda.synchronize(d)
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 28)
    gpus = torch.cuda.device_count()
    print(f"{gpus} GPU(s): {[torch.cuda.get_device_name(d) for d in range(gpus)]}")
    x = torch.rand(n, device="cuda:0")
    if gpus > 1:
        print("peer access 0->1:", torch.cuda.can_device_access_peer(0, 1))
        ms = median_ms(lambda: x.to("cuda:1"))
        print(f"torch x.to('cuda:1'), {4 * n / 2**30:.1f} GiB: {ms:.3f} ms, {4 * n / ms / 1e6:.1f} GB/s")
    else:
        print("one GPU: no copy between GPUs to time")
    y = torch.rand(n, device="cuda:0")
    ms = median_ms(lambda: y.add_(x, alpha=1.5))
    print(f"torch saxpy, 2^{n.bit_length() - 1} floats, one GPU: {ms:.3f} ms, {12 * n / ms / 1e6:.1f} GB/s")
    a = torch.rand(8192, 8192, device="cuda:0", dtype=torch.float16)
    b = torch.rand(8192, 8192, device="cuda:0", dtype=torch.float16)
    ms = median_ms(lambda: torch.mm(a, b))
    print(f"torch f16 mm 8192^3, one GPU: {ms:.3f} ms, {2 * 8192**3 / ms / 1e9:.1f} TFLOP/s")


if __name__ == "__main__":
    main()
