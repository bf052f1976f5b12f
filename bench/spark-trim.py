#!/usr/bin/env python3
"""Trims a class path to what a traced run loaded: spark-trim.py <class-load logs,comma-separated> <out dir> <jars...>.

Keeps, per jar, the classes the run loaded with their nested classes (whole packages of spark-core,
whose timers load classes later than a short run sees), every resource but native libraries of other
platforms and ICU data outside its collations, and whole any jar without classes (natives only). For
bench/spark-h200.sh, whose device calls carry at most 64 MiB."""
import collections
import os
import re
import sys
import zipfile

logs, outdir, jars = sys.argv[1].split(','), sys.argv[2], sys.argv[3:]
WHOLE_PACKAGES = ('spark-core_',)
loaded = collections.defaultdict(set)   # jar path -> outer classes (a/b/C) and packages (a/b/) loaded
for log in logs:
    for line in open(log):
        m = re.search(r'\] (\S+) source: file:(\S+\.jar)', line)
        if m:
            name = m.group(1).replace('.', '/')
            loaded[os.path.realpath(m.group(2))].update({name.split('$')[0], name.rsplit('/', 1)[0] + '/'})
other = re.compile(r'(aarch64|arm|ppc|s390|riscv|osx|darwin|mac|windows|win32|win64|freebsd|loongarch)', re.I)
os.makedirs(outdir, exist_ok=True)
for jar in jars:
    real, name = os.path.realpath(jar), os.path.basename(jar)
    with zipfile.ZipFile(real) as probe:
        has_classes = any(n.endswith('.class') and not n.endswith('module-info.class') for n in probe.namelist())
    if real not in loaded and has_classes:
        continue
    keep, packages = loaded.get(real, set()), name.startswith(WHOLE_PACKAGES)
    with zipfile.ZipFile(real) as src, zipfile.ZipFile(os.path.join(outdir, name), 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        for info in src.infolist():
            n = info.filename
            if n.endswith('/'):
                continue
            if n.endswith('.class') and not n.endswith('module-info.class'):
                base = n.split('/', 3)[3] if n.startswith('META-INF/versions/') else n
                if base[:-6].split('$')[0] not in keep and not (packages and base.rsplit('/', 1)[0] + '/' in keep):
                    continue
            elif n.endswith(('.dll', '.dylib', '.jnilib')) or (n.endswith('.so') or '.so.' in n) and other.search(n):
                continue
            elif '/icudata/' in n and '/coll/' not in n and not n.endswith(('.cfu', '.nrm', 'res_index.res', 'root.res')):
                continue  # ICU's break, transliteration and locale data: Spark's collations read only coll/
            dst.writestr(info, src.read(n))
