import { AppError } from '../errors';

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * How many pilot sponsors a company has linked: the used part of its plan's sponsorship slots.
 * @param db - DataSource or transaction
 * @param companyId - the company
 * @returns the count
 */
export async function sponsorshipSlotsUsed(db: Queryable, companyId: string): Promise<number> {
  const rows = (await db.query(`SELECT count(*)::int AS n FROM pilot_sponsors WHERE company_id = $1`, [companyId])) as Array<{ n: number }>;
  return rows[0]?.n ?? 0;
}

/**
 * Checks, inside the transaction that links a sponsor, that the company may take one more: it
 * exists, its program is active and in its period, and a slot is left. The company row is locked,
 * so two links made at once never both take the last slot.
 * @param tx - the transaction that will write the link
 * @param companyId - the company
 * @param sponsorId - the sponsor being linked (already linked to this company: no new slot)
 * @throws AppError 422 company_unknown, 409 company_not_active, 409 sponsorship_slots_full
 */
export async function takeSponsorshipSlot(tx: Queryable, companyId: string, sponsorId: string): Promise<void> {
  const [company] = (await tx.query(
    `SELECT sponsorship_slots, activated_at, period_ends_at FROM aei_companies WHERE id = $1 FOR UPDATE`,
    [companyId],
  )) as Array<{ sponsorship_slots: number; activated_at: Date | null; period_ends_at: Date | null }>;
  if (!company) {
    throw new AppError(422, 'company_unknown', 'No company of the program has this company_id.', {
      details: { fields: [{ path: '/company_id', rule: 'exists', message: 'must be a company of the company program' }] },
    });
  }
  if (!company.activated_at || !company.period_ends_at || company.period_ends_at.getTime() <= Date.now()) {
    throw new AppError(409, 'company_not_active', "This company's program is not active (not claimed yet, or its period ended): it has no sponsorship slots now.");
  }
  const [taken] = (await tx.query(`SELECT count(*)::int AS n FROM pilot_sponsors WHERE company_id = $1 AND id <> $2`, [companyId, sponsorId])) as Array<{ n: number }>;
  if ((taken?.n ?? 0) >= company.sponsorship_slots) {
    throw new AppError(409, 'sponsorship_slots_full', `This company's plan has ${company.sponsorship_slots} sponsorship slots and all are taken.`, {
      details: { slots: company.sponsorship_slots },
    });
  }
}
