import type { ChargeAudit } from '@analyst/domain-ledger';
import { table } from './table';

/** The content-side section of `ledger audit`: per-team counts, then every open reservation with its age. */
export function printChargeReport(charges: ChargeAudit, log: (line: string) => void): void {
  log(
    `charges cross-checked with the post and job streams (open reservations aged as of ${charges.asOf}, bound ${charges.maxOpenMinutes} min):`,
  );
  const rows: (string | number)[][] = [
    ['team', 'posts', 'reservations', 'settled', 'refunded', 'open', 'findings', 'ok'],
  ];
  for (const t of charges.teams)
    rows.push([
      t.teamId,
      t.posts,
      t.reservations,
      t.settled,
      t.refunded,
      t.open,
      t.findings,
      t.findings === 0 ? 'yes' : 'NO',
    ]);
  log(table(rows));
  if (charges.open.length === 0) {
    log('open reservations: none');
    return;
  }
  log('open reservations (each must end in a settle or a refund):');
  const open: (string | number)[][] = [
    ['team', 'reservation', 'position', 'reserved at', 'age min', 'credits', 'post', 'link', 'stale'],
  ];
  for (const o of charges.open) {
    const post = o.post ? `${o.post.postId} v${o.post.dataVersion}` : '-';
    open.push([
      o.teamId,
      o.reservationId,
      o.position,
      o.reservedAt,
      o.ageMinutes,
      o.amount,
      post,
      o.post?.link ?? '-',
      o.stale ? 'STALE' : 'no',
    ]);
  }
  log(table(open));
}
