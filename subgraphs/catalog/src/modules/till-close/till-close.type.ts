import { DateTimeResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('PosTillMethodSales', { description: 'Sales of one payment method in a till close.' })
export class TillMethodSalesType {
  @Field({ description: 'The payment method as the device sent it (`qris` for payments the platform matched).' })
  method!: string;

  @Field(() => Int, { description: 'Orders with a payment of this method.' })
  orderCount!: number;

  @Field(() => SafeIntResolver, { description: 'Σ payments of this method, whole rupiah (cash as tendered, before change).' })
  amount!: number;
}

@ObjectType('PosTillCategorySales', { description: 'Sales of one product category in a till close (order lines).' })
export class TillCategorySalesType {
  @Field(() => ID, { nullable: true, description: 'Null: products without a category, or lines without a variant.' })
  categoryId!: string | null;

  @Field(() => String, { nullable: true })
  categoryName!: string | null;

  @Field(() => SafeIntResolver)
  quantity!: number;

  @Field(() => SafeIntResolver, { description: 'Σ line totals, whole rupiah (before the order-level discount and tax).' })
  amount!: number;
}

@ObjectType('PosTillClose', {
  description:
    'The close of an outlet’s day or of a cashier’s shift (docs/decisions/0057-sales-orders-and-receipt-numbers.md): figures of the sales orders of its window.',
})
export class TillCloseType {
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  merchantId!: string;

  @Field(() => ID)
  outletId!: string;

  @Field({ description: 'day or shift.' })
  kind!: string;

  @Field(() => String, { nullable: true, description: 'A day close’s business day (YYYY-MM-DD, Asia/Makassar).' })
  businessDay!: string | null;

  @Field(() => ID, { nullable: true, description: 'The app user who closed (null on the service surface).' })
  cashierUserId!: string | null;

  @Field(() => String, { nullable: true })
  cashierName!: string | null;

  @Field(() => DateTimeResolver, { description: 'Start of the window, inclusive.' })
  periodStart!: Date;

  @Field(() => DateTimeResolver, { description: 'End of the window, exclusive.' })
  periodEnd!: Date;

  @Field(() => SafeIntResolver)
  openingFloat!: number;

  @Field(() => SafeIntResolver, { description: 'openingFloat + cash payments − change given.' })
  expectedCash!: number;

  @Field(() => SafeIntResolver)
  countedCash!: number;

  @Field(() => SafeIntResolver, { description: 'countedCash − expectedCash (negative: short).' })
  cashDifference!: number;

  @Field(() => Int)
  orderCount!: number;

  @Field(() => SafeIntResolver)
  salesAmount!: number;

  @Field(() => SafeIntResolver)
  changeAmount!: number;

  @Field(() => SafeIntResolver, { description: 'Payments of dynamic QRIS the platform matched to the orders (bill number and amount).' })
  qrisMatchedAmount!: number;

  @Field(() => Int)
  qrisMatchedCount!: number;

  @Field(() => SafeIntResolver, { description: 'Payments of method qris the device recorded that the platform did not match.' })
  qrisUnconfirmedAmount!: number;

  @Field(() => [TillMethodSalesType])
  salesByMethod!: TillMethodSalesType[];

  @Field(() => [TillCategorySalesType])
  salesByCategory!: TillCategorySalesType[];

  @Field(() => Int)
  voidCount!: number;

  @Field(() => SafeIntResolver)
  voidAmount!: number;

  @Field(() => String, { nullable: true })
  note!: string | null;

  @Field(() => DateTimeResolver)
  createdAt!: Date;

  @Field({ description: 'True when an Idempotency-Key replay answered the close made first.' })
  idempotentReplay!: boolean;
}

@InputType('PosTillCloseInput', { description: 'Closes an outlet’s day or a cashier’s shift.' })
export class TillCloseInput {
  @Field(() => ID)
  outletId!: string;

  @Field({ description: 'day or shift.' })
  kind!: string;

  @Field(() => String, { nullable: true, description: 'day: the business day (YYYY-MM-DD, Asia/Makassar); default today.' })
  businessDay?: string | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'shift: start of the shift (required).' })
  shiftStart?: Date | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'shift: end of the shift; default now.' })
  shiftEnd?: Date | null;

  @Field(() => String, { nullable: true, description: 'The cashier’s name (up to 100 characters).' })
  cashierName?: string | null;

  @Field(() => SafeIntResolver, { description: 'Cash counted in the drawer, whole rupiah.' })
  countedCash!: number;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Cash in the drawer at the start (default 0).' })
  openingFloat?: number | null;

  @Field(() => String, { nullable: true, description: 'Up to 500 characters.' })
  note?: string | null;

  @Field(() => String, { nullable: true, description: 'Idempotency-Key: 1–255 visible ASCII characters, unique per merchant.' })
  idempotencyKey?: string | null;
}
