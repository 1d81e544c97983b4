import { Type } from '@sinclair/typebox';
import { Nullable } from '@lib/rest/schema-helpers';

const Month = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM, Asia/Jakarta.' });

export const FeeOverchargesQuery = Type.Object({
  from: Type.Optional({ ...Month, description: 'First month, YYYY-MM (Asia/Jakarta); default 11 months before `to`.' }),
  to: Type.Optional({ ...Month, description: 'Last month, YYYY-MM (Asia/Jakarta); default the current month. At most 24 months in all.' }),
});

export const FeeOverchargesResponse = Type.Object(
  {
    merchant_id: Nullable(Type.String({ format: 'uuid' })),
    merchant_name: Nullable(Type.String()),
    total_overcharge_amount: Type.Integer({
      description: 'Σ overcharge_amount of the months: what the banks charged above the MDR policy.',
    }),
    months: Type.Array(
      Type.Object(
        {
          month: Month,
          transaction_count: Type.Integer({ description: 'Transactions that carry an MDR (success, refunded, reversed).' }),
          overcharged_count: Type.Integer({ description: 'Of them, those whose bank-reported MDR fee is above the policy’s.' }),
          bank_fee_amount: Type.Integer({ description: 'Σ the MDR fees the banks reported (mdr_fee_bank).' }),
          expected_fee_amount: Type.Integer({ description: 'Σ the MDR policy’s fees (mdr_fee_amount).' }),
          overcharge_amount: Type.Integer({ description: 'Σ (bank fee − policy fee) over the overcharged transactions.' }),
          settlements_overcharged: Type.Integer({
            description: 'Settlements whose MDR total is above the policy’s fees of the transactions they settled.',
          }),
          settlement_overcharge_amount: Type.Integer({ description: 'Σ (MDR total − policy fees) over those settlements.' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 24 },
    ),
  },
  { additionalProperties: false },
);
