import type { RestRoute } from '@lib/rest/route';
import categoryCreate from './catalog/categories/create';
import categoryDefaults from './catalog/categories/defaults';
import categoryDelete from './catalog/categories/delete';
import categoryGet from './catalog/categories/get';
import categoryList from './catalog/categories/list';
import categoryProvision from './catalog/categories/provision';
import categoryUpdate from './catalog/categories/update';
import outletCreate from './catalog/outlets/create';
import outletDelete from './catalog/outlets/delete';
import outletGet from './catalog/outlets/get';
import outletList from './catalog/outlets/list';
import outletUpdate from './catalog/outlets/update';
import outletQris from './outlets/qris';
import qrisPaymentCancel from './payments/qris/cancel';
import qrisPaymentCreate from './payments/qris/create';
import qrisPaymentEvents from './payments/qris/events';
import qrisPaymentGet from './payments/qris/get';
import productCreate from './catalog/products/create';
import productDelete from './catalog/products/delete';
import productGet from './catalog/products/get';
import productList from './catalog/products/list';
import productUpdate from './catalog/products/update';
import orderGet from './sales/orders/get';
import orderList from './sales/orders/list';
import orderUpdate from './sales/orders/update';
import syncPull from './sync/pull';
import syncPush from './sync/push';
import tillCloseCreate from './till/closes/create';
import tillCloseGet from './till/closes/get';
import tillCloseList from './till/closes/list';

/** Every point-of-sale route, each on both surfaces (`/poslite/...` service, `/merchant/poslite/...` app). */
export const posliteRoutes: RestRoute<any>[] = [
  outletList,
  outletCreate,
  outletGet,
  outletUpdate,
  outletDelete,
  outletQris,
  categoryList,
  categoryCreate,
  categoryDefaults,
  categoryProvision,
  categoryGet,
  categoryUpdate,
  categoryDelete,
  productList,
  productCreate,
  productGet,
  productUpdate,
  productDelete,
  syncPull,
  syncPush,
  orderList,
  orderGet,
  orderUpdate,
  qrisPaymentCreate,
  qrisPaymentGet,
  qrisPaymentEvents,
  qrisPaymentCancel,
  tillCloseCreate,
  tillCloseList,
  tillCloseGet,
].flat();
