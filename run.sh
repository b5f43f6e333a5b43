cd /work/main
m=$1
py=".venv/bin/python /work/lead/s15/sweep.py"
$py bench/solo-set.jsonl $m cave-b2w4-win5 field-b1w4-win5 field-b2w4-win6 field-b3w4-win7 > /work/lead/s15/r$m.jsonl
$py puzzles/rulebook-solo.jsonl $m mist-black mist-white torus-white torus-black wall-white gorge-white >> /work/lead/s15/r$m.jsonl
$py bench/deep-set.jsonl $m gorge-w-r1 gorge-w-r2 gorge-w-s3 gorge-b-r1 gorge-b-r2 gorge-b-s3 field-w-r1 field-w-r2 field-w-s3 field-b-r2 >> /work/lead/s15/r$m.jsonl
echo done > /work/lead/s15/r$m.done
