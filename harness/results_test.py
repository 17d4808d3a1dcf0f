#!/usr/bin/python3
# Tests of harness/results.py, the harness's results format (JSON lines), in
# the style of tools/testing/kunit/kunit_tool_test.py: python3
# harness/results_test.py (tests.list: selftest-results).

import json
import os
import shutil
import tempfile
import unittest
from unittest import mock

import results

test_tmpdir = ''


def setUpModule():
	global test_tmpdir
	test_tmpdir = tempfile.mkdtemp()


def tearDownModule():
	shutil.rmtree(test_tmpdir)


def tmp_path(*names):
	path = os.path.join(test_tmpdir, *names)
	os.makedirs(os.path.dirname(path), exist_ok=True)
	return path


class CheckTest(unittest.TestCase):

	def test_verdict_and_metric(self):
		results.check({'run': 'r', 'kind': 'verdict', 'test': 't', 'result': 'pass', 'seconds': None})
		results.check({'run': 'r', 'kind': 'metric', 'metric': 'm', 'value': 1.5, 'unit': 'kB',
			       'better': 'lower', 'round': 2, 'alloc': 'slqb'})

	def test_refused(self):
		for rec, why in (
				([1, 2], 'not a JSON object'),
				({'run': 'r', 'kind': 'note'}, 'kind'),
				({'run': 'r', 'kind': 'verdict', 'test': 't'}, 'without result'),
				({'kind': 'verdict', 'test': 't', 'result': 'pass'}, 'without run'),
				({'run': 'r', 'kind': 'verdict', 'test': 't', 'result': 'PASS'}, 'result'),
				({'run': 'r', 'kind': 'metric', 'metric': 'm', 'value': '1', 'unit': 'u'}, 'not a number'),
				({'run': 'r', 'kind': 'metric', 'metric': 'm', 'value': 1, 'unit': 'u', 'better': 'up'}, 'better'),
				({'run': 'r', 'kind': 'metric', 'metric': 'm', 'value': 1, 'unit': 'u', 'round': 1.5}, 'whole'),
				({'run': 'r', 'kind': 'metric', 'metric': 'm', 'value': 1, 'unit': 'u', 'colour': 'x'}, 'unknown key colour')):
			with self.assertRaisesRegex(ValueError, why):
				results.check(rec)


class ParsePairsTest(unittest.TestCase):

	def test_types(self):
		self.assertEqual(results.parse_pairs(['kind=metric', 'value=12', 'round=3', 'unit=ms', 'metric=a=b']),
				 {'kind': 'metric', 'value': 12, 'round': 3, 'unit': 'ms', 'metric': 'a=b'})
		self.assertEqual(results.parse_pairs(['value=0.25', 'test=007']), {'value': 0.25, 'test': '007'})

	def test_empty(self):
		# A SKIP has no seconds (null); any other empty value is left out.
		self.assertEqual(results.parse_pairs(['seconds=', 'detail=']), {'seconds': None})

	def test_not_a_pair(self):
		with self.assertRaisesRegex(ValueError, 'KEY=VALUE'):
			results.parse_pairs(['value'])
		with self.assertRaisesRegex(ValueError, 'number'):
			results.parse_pairs(['value=fast'])


class FileTest(unittest.TestCase):

	def test_append_read(self):
		path = tmp_path('check', '20261207-1', 'results.jsonl')
		results.append(path, [{'kind': 'verdict', 'test': 'a', 'result': 'pass', 'seconds': 3}])
		results.append(path, [{'kind': 'verdict', 'test': 'b', 'result': 'skip', 'seconds': None,
				       'detail': 'only with FULL=1'}])
		recs = results.read(path)
		self.assertEqual([r['test'] for r in recs], ['a', 'b'])
		self.assertEqual(recs[0]['run'], 'check/20261207-1')
		with open(path) as f:
			self.assertEqual(len(f.readlines()), 2)  # a line each

	def test_append_refuses_whole(self):
		path = tmp_path('refuse', 'x', 'results.jsonl')
		with self.assertRaises(ValueError):
			results.append(path, [{'kind': 'verdict', 'test': 'a', 'result': 'pass'},
					      {'kind': 'verdict', 'test': 'b'}])
		self.assertFalse(os.path.exists(path))  # nothing half-written

	def test_read_names_the_line(self):
		path = tmp_path('bad', 'x', 'results.jsonl')
		with open(path, 'w') as f:
			f.write(json.dumps({'run': 'r', 'kind': 'verdict', 'test': 'a', 'result': 'pass'}) + '\n')
			f.write(json.dumps({'run': 'r', 'kind': 'verdict', 'test': 'a', 'result': 'ok'}) + '\n')
		with self.assertRaisesRegex(ValueError, 'results.jsonl:2: result'):
			results.read(path)

	def test_cli(self):
		path = tmp_path('cli', 'x', 'results.jsonl')
		self.assertEqual(results.main(['add', path, 'kind=metric', 'metric=m', 'value=2', 'unit=u', 'alloc=slqb']), 0)
		self.assertEqual(results.main(['add', path, 'kind=metric', 'metric=n', 'value=3', 'unit=u', 'alloc=slub']), 0)
		with self.assertRaises(ValueError):
			results.main(['add', path, 'kind=metric', 'metric=m'])
		self.assertEqual([r['metric'] for r in results.select(results.read(path), alloc='slub')], ['n'])
		with mock.patch('sys.stderr'):
			self.assertEqual(results.main(['nonsense']), 2)


class FromLogTest(unittest.TestCase):

	def test_bench(self):
		log = ('[    3.1] @@BENCH metric=kmalloc_pair.64 value=41.5 unit=cycles better=lower\r\n'
		       'noise\n'
		       '@@BENCH metric=tcp_rr.other_node value=90 unit=trans/s better=higher\n'
		       '@@BENCH metric=cut value=\n')
		recs = results.from_log(log, alloc='slqb', round=1)
		self.assertEqual(recs, [
			{'kind': 'metric', 'metric': 'kmalloc_pair.64', 'value': 41.5, 'unit': 'cycles',
			 'better': 'lower', 'alloc': 'slqb', 'round': 1},
			{'kind': 'metric', 'metric': 'tcp_rr.other_node', 'value': 90, 'unit': 'trans/s',
			 'better': 'higher', 'alloc': 'slqb', 'round': 1}])

	def test_soak(self):
		log = '@@SOAK alloc=slqb topo=numa2 cpus=4 nodes=2 secs=60 hackbench=ok slab_pct=-3\n'
		recs = results.from_log(log, build='slqb-debug')
		self.assertEqual([(r['metric'], r['value'], r['unit']) for r in recs],
				 [('soak.secs', 60, 's'), ('soak.slab_pct', -3, '%')])
		self.assertEqual({(r['alloc'], r['topology'], r['cpus'], r['nodes'], r['build'], r['detail']) for r in recs},
				 {('slqb', 'numa2', 4, 2, 'slqb-debug', 'hackbench=ok')})
		for r in recs:
			results.check(dict(r, run='r'))


class BenchTest(unittest.TestCase):

	def test_summary(self):
		recs = [dict(run='r', kind='metric', metric='pair', unit='cycles', better='lower', round=n, alloc=a, value=v)
			for n, a, v in ((1, 'slqb', 9), (1, 'slub', 10), (2, 'slub', 12), (2, 'slqb', 8))]
		recs += [dict(run='r', kind='metric', metric='count.hackbench.socket.page_alloc', unit='per_1k_allocs',
			      alloc='slqb', value=22.0),
			 dict(run='r', kind='metric', metric='mem.boot.slab', unit='kB', alloc='slqb', value=1),
			 dict(run='r', kind='verdict', test='r1-slqb', result='pass')]
		b = results.bench(recs)
		self.assertEqual(b['rounds'], 2)
		self.assertEqual(b['allocators'], ['slqb', 'slub'])
		self.assertEqual(b['order'], ['pair'])  # a counted boot's other lines are not timed
		self.assertEqual(b['metrics']['pair']['slqb']['values'], [9.0, 8.0])
		self.assertEqual(b['counts_per_1k_allocs'], {'hackbench.socket': {'slqb': {'page_alloc': 22.0}}})


if __name__ == '__main__':
	unittest.main()
